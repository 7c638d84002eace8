# A challenge's deal is stored as its code: the existing challenges keep their CF1 deals (no
# attempt); new ones are CF2 (R4a) with the attempt they were derived with.

from django.db import migrations, models

BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def cf1_code(number, draw):
    """R3's code of a CF1 deal number (frozen here: the migration must not follow the engine)."""
    chars = [BASE32[(number >> (5 * k)) & 31] for k in reversed(range(7))]
    return f"CF1-D{draw}-{''.join(chars)}"


def codes_from_numbers(apps, schema_editor):
    DailyChallenge = apps.get_model("leaderboard", "DailyChallenge")
    challenges = list(DailyChallenge.objects.only("pk", "deal_number", "draw"))
    for challenge in challenges:
        challenge.deal_code = cf1_code(challenge.deal_number, challenge.draw)
    DailyChallenge.objects.bulk_update(challenges, ["deal_code"], batch_size=1000)


def numbers_from_codes(apps, schema_editor):
    DailyChallenge = apps.get_model("leaderboard", "DailyChallenge")
    if DailyChallenge.objects.filter(deal_code__startswith="CF2").exists():
        raise RuntimeError("CF2 challenges cannot go back to a 35-bit deal_number")
    challenges = list(DailyChallenge.objects.only("pk", "deal_code"))
    for challenge in challenges:
        number = 0
        for char in challenge.deal_code[7:]:
            number = number * 32 + BASE32.index(char)
        challenge.deal_number = number
    DailyChallenge.objects.bulk_update(challenges, ["deal_number"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0005_entry_protect_history"),
    ]

    operations = [
        migrations.AddField(
            model_name="dailychallenge",
            name="deal_code",
            field=models.CharField(max_length=40, null=True),
        ),
        migrations.AddField(
            model_name="dailychallenge",
            name="attempt",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="dailychallenge",
            name="deal_number",
            field=models.BigIntegerField(null=True),
        ),
        migrations.RunPython(codes_from_numbers, numbers_from_codes, elidable=False),
        migrations.RemoveField(
            model_name="dailychallenge",
            name="deal_number",
        ),
        migrations.AlterField(
            model_name="dailychallenge",
            name="deal_code",
            field=models.CharField(max_length=40),
        ),
    ]
