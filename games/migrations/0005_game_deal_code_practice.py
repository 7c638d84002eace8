# The deal is stored as its code (CF1 or the 128-bit CF2 of R4a, too large for a bigint), and
# practice games (R19) are marked. Games from before could not tell a random deal from a code
# the player typed: only custom decks become practice games.

from django.db import migrations, models

BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
BATCH = 2000


def cf1_code(number, draw):
    """R3's code of a CF1 deal number (frozen here: the migration must not follow the engine)."""
    chars = [BASE32[(number >> (5 * k)) & 31] for k in reversed(range(7))]
    return f"CF1-D{draw}-{''.join(chars)}"


def cf1_number(code):
    number = 0
    for char in code[7:]:
        number = number * 32 + BASE32.index(char)
    return number


def codes_from_numbers(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.filter(deck__isnull=False).update(practice=True)
    rows = Game.objects.exclude(deal_number=None).only("pk", "deal_number", "draw")
    batch = []
    for game in rows.iterator(chunk_size=BATCH):
        game.deal_code = cf1_code(game.deal_number, game.draw)
        batch.append(game)
        if len(batch) == BATCH:
            Game.objects.bulk_update(batch, ["deal_code"])
            batch = []
    Game.objects.bulk_update(batch, ["deal_code"])


def numbers_from_codes(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    if Game.objects.filter(deal_code__startswith="CF2").exists():
        raise RuntimeError("games dealt from CF2 codes cannot go back to a 35-bit deal_number")
    batch = []
    for game in Game.objects.exclude(deal_code=None).only("pk", "deal_code").iterator():
        game.deal_number = cf1_number(game.deal_code)
        batch.append(game)
    Game.objects.bulk_update(batch, ["deal_number"], batch_size=BATCH)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_game_address_hash"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="deal_code",
            field=models.CharField(blank=True, max_length=40, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="practice",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(codes_from_numbers, numbers_from_codes, elidable=False),
        migrations.RemoveField(
            model_name="game",
            name="deal_number",
        ),
    ]
