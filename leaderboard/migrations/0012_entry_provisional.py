"""Entry.provisional (R36): an entry of an account not in good standing, listed apart and never
ranked; the board's index leaves it out, as the ranking does (leaderboard.selectors.ON_BOARD).
Existing entries stay ranked (the column's default)."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_guest_left'),
        ('leaderboard', '0011_entry_home'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='entry',
            name='entry_board_order',
        ),
        migrations.AddField(
            model_name='entry',
            name='provisional',
            field=models.BooleanField(db_default=False, default=False),
        ),
        migrations.AddIndex(
            model_name='entry',
            index=models.Index(condition=models.Q(('disqualified', False), models.Q(('review', 'held'), _negated=True), ('provisional', False)), fields=['challenge', 'bot', '-score', 'moves'], name='entry_board_order'),
        ),
    ]
