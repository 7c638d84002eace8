"""Game.match goes (docs/contributing.md, "Layers": foreign keys point down): a match game's
match is its seat's, `matches.MatchPlayer.game` (games.seats), which holds the same fact. The
column (and its index) is dropped once the seats are checked to say what it says, so nothing is
lost; migrated back, the column comes back filled from the seats."""

from django.db import migrations
from django.db.models import F, OuterRef, Q, Subquery


def seat_match(apps):
    """The match of the game's seat, per game (null for a game of no match)."""
    MatchPlayer = apps.get_model("matches", "MatchPlayer")
    return Subquery(MatchPlayer.objects.filter(game=OuterRef("pk")).values("match")[:1])


def seats_agree(apps, schema_editor):
    """Refuse to drop the column while some game's match is not its seat's (or one of them is
    missing): the rows would say something else afterwards."""
    Game = apps.get_model("games", "Game")
    games = Game.objects.annotate(seated=seat_match(apps))
    differ = games.filter(
        Q(match__isnull=False, seated__isnull=True)
        | Q(match__isnull=True, seated__isnull=False)
        | (Q(match__isnull=False) & ~Q(match=F("seated")))
    )
    found = list(differ.values_list("pk", flat=True)[:10])
    if found:
        raise RuntimeError(f"games whose match is not their seat's: {found}")


def matches_refill(apps, schema_editor):
    """Migrated back: each match game's column again, from its seat."""
    Game = apps.get_model("games", "Game")
    Game.objects.filter(match_seat__isnull=False).update(match=seat_match(apps))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_dailychallenge_from_leaderboard"),
        ("matches", "0004_challenger_hashes"),
    ]

    operations = [
        migrations.RunPython(seats_agree, matches_refill),
        migrations.RemoveField(model_name="game", name="match"),
    ]
