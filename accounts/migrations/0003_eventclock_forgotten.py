"""The event clock keeps the highest `seq` forgotten (accounts.events.events_forget), so that a
`since` is accepted by position (accounts.events.since_accepted) rather than only when it is a
kept event of the account: a stream's opening line gives a position that is no event.

The events forgotten before this migration left no watermark: every `seq` under the first kept
one counts as forgotten (all of them when none is kept)."""

from django.db import migrations, models


def watermark(apps, schema_editor):
    AccountEvent = apps.get_model("accounts", "AccountEvent")
    EventClock = apps.get_model("accounts", "EventClock")
    clock = EventClock.objects.filter(pk=1).first()
    if clock is None:
        return
    first = AccountEvent.objects.exclude(seq=None).aggregate(first=models.Min("seq"))["first"]
    clock.forgotten = clock.last if first is None else first - 1
    clock.save(update_fields=["forgotten"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_identity_from_games")]

    operations = [
        migrations.AddField(
            model_name="eventclock",
            name="forgotten",
            field=models.BigIntegerField(default=0),
        ),
        migrations.RunPython(watermark, migrations.RunPython.noop),
    ]
