"""The keys' models moved from the `keys` app to `accounts` in Django's state only
(accounts/migrations/0001_from_keys.py), and so did the identity models of `games`
(accounts/migrations/0002_identity_from_games.py): a database the old app made keeps its rows,
its tables and its content types (so permissions and admin history) through the migration. So
does DailyChallenge, moved from `leaderboard` to `games`
(games/migrations/0015_dailychallenge_from_leaderboard.py)."""

import datetime as dt

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from accounts import events
from accounts.models import AccountEvent, ApiKey, EventClock, Player, ReservedName
from accounts.services import key_create, key_hash
from games.models import DailyChallenge, Game
from games.services import game_create
from leaderboard.models import Entry

BEFORE = [("keys", "0003_oauth_family_and_redeemed_codes"), ("accounts", None)]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets[:1]).apps


@pytest.mark.django_db(transaction=True)
def test_a_key_made_by_the_keys_app_works_after_the_move(make_user, api_client):
    # given: the database as the keys app left it, with a key and the model's content type
    user = make_user("alice")
    key = "cfk_" + "ab" * 20
    then = migrate(BEFORE)
    try:
        old_type = ContentType.objects.get_or_create(app_label="keys", model="apikey")[0]
        then.get_model("keys", "ApiKey").objects.create(
            id=key[:8],
            user_id=user.pk,
            key_hash=key_hash(key),
            name="old bot",
            scopes="account:read game:play",
            created=timezone.now(),
        )
    finally:
        # when: migrated to today's models (whatever happened, for the tests after this one)
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    # then: the row is the accounts app's, its table unchanged, the content type followed it
    assert ApiKey._meta.db_table == "keys_apikey"
    assert ApiKey.objects.get(id=key[:8]).name == "old bot"
    moved = ContentType.objects.get(pk=old_type.pk)
    assert (moved.app_label, moved.model) == ("accounts", "apikey")
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert api_client.get("/api/v1/account").json()["username"] == "alice"


def test_the_admin_lists_the_keys_under_accounts(admin_client, user):
    # given
    key_create(user=user, name="my bot", scopes=["board:read"])

    # when
    page = admin_client.get("/admin/accounts/apikey/")

    # then
    assert page.status_code == 200 and "my bot" in page.content.decode()


IDENTITY_BEFORE = [("games", "0013_account_event_seq"), ("accounts", "0001_from_keys")]


@pytest.mark.django_db(transaction=True)
def test_identity_rows_made_by_the_games_app_work_after_the_move(make_user, api_client):
    # given: the database as the games app left its identity models (accounts/migrations/
    # 0002_identity_from_games.py), with a bot's row, a stamped event, a reserved name and the
    # content types
    user = make_user("botty")
    then = migrate(IDENTITY_BEFORE)
    try:
        old_types = {
            model: ContentType.objects.get_or_create(app_label="games", model=model)[0]
            for model in ("player", "reservedname", "accountevent", "eventclock")
        }
        now = timezone.now()
        then.get_model("games", "Player").objects.create(user_id=user.pk, bot=True, bot_since=now)
        then.get_model("games", "ReservedName").objects.create(name_hash="f" * 64, deleted_at=now)
        then.get_model("games", "AccountEvent").objects.create(
            user_id=user.pk, seq=1, kind="game_started", data={"game": "g"}, at=now
        )
        then.get_model("games", "EventClock").objects.create(pk=1, last=1)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    # then: the rows are the accounts app's, their tables unchanged, the content types followed
    assert [model._meta.db_table for model in (Player, ReservedName, AccountEvent, EventClock)] == [
        "games_player",
        "games_reservedname",
        "games_accountevent",
        "games_eventclock",
    ]
    assert ReservedName.objects.get().name_hash == "f" * 64
    for model, old_type in old_types.items():
        moved = ContentType.objects.get(pk=old_type.pk)
        assert (moved.app_label, moved.model) == ("accounts", model)
    # ... and the API reads them: the account is a bot, its stream resumes after event 1
    api_client.force_authenticate(user)
    assert api_client.get("/api/v1/account").json()["bot"] is True
    events.event_add(user=user.pk, kind="game_ended", data={"game": "g"})
    assert [(e["id"], e["type"]) for e in events.events_after(user_id=user.pk, after=0)] == [
        (1, "game_started"),
        (2, "game_ended"),
    ]


DAILY_BEFORE = [("leaderboard", "0012_entry_provisional"), ("games", "0014_identity_to_accounts")]


@pytest.mark.django_db(transaction=True)
def test_a_daily_made_by_the_leaderboard_app_works_after_the_move(make_user):
    # given: the database as the leaderboard app left DailyChallenge (games/migrations/
    # 0015_dailychallenge_from_leaderboard.py), with a day and the model's content type
    then = migrate(DAILY_BEFORE)
    try:
        old_type = ContentType.objects.get_or_create(
            app_label="leaderboard", model="dailychallenge"
        )[0]
        made = then.get_model("leaderboard", "DailyChallenge").objects.create(
            date=dt.date(2026, 1, 2), draw=3, deal_code="CF1-D3-AAAAAAB", ends_at=timezone.now()
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    # then: the row is the games app's, its table unchanged, the content type followed it; a
    # game and a board entry refer to it there
    assert DailyChallenge._meta.db_table == "leaderboard_dailychallenge"
    challenge = DailyChallenge.objects.get(pk=made.pk)
    moved = ContentType.objects.get(pk=old_type.pk)
    assert (moved.app_label, moved.model) == ("games", "dailychallenge")
    game = game_create(owner=make_user("dora"), challenge=challenge)
    assert Game._meta.get_field("challenge").related_model is DailyChallenge
    assert Entry._meta.get_field("challenge").related_model is DailyChallenge
    assert list(challenge.games.all()) == [game]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("model", "before"), [(ApiKey, BEFORE), (DailyChallenge, DAILY_BEFORE)], ids=["key", "daily"]
)
def test_a_moved_content_type_survives_a_migrate_back_and_forth(model, before):
    # given: the content type after the move, with a permission attached to it
    kept = ContentType.objects.get_for_model(model)
    name = model._meta.model_name
    permission = Permission.objects.get(content_type=kept, codename=f"view_{name}")
    try:
        # when: migrated back to the app that made it, a `migrate` in between making the new
        # app's content type again (post_migrate: new, empty), then forward, back and forward
        migrate(before)
        ContentType.objects.clear_cache()
        fresh = ContentType.objects.create(app_label=kept.app_label, model=name)
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        migrate(before)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        ContentType.objects.clear_cache()

    # then: the one content type (the permission's) is the new app's; the copy is gone
    assert list(ContentType.objects.filter(model=name).values_list("pk", "app_label")) == [
        (kept.pk, model._meta.app_label)
    ]
    assert not ContentType.objects.filter(pk=fresh.pk).exists()
    assert Permission.objects.get(pk=permission.pk).content_type_id == kept.pk
