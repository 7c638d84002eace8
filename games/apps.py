from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # The layer below (accounts) reads games and forgets a deleted account's client hashes
        # in them through what games lends it here: it never imports games
        # (docs/contributing.md, "Layers").
        from accounts.authentication import GameReaders, game_readers_provide
        from accounts.identity import AccountGames, account_games_provide
        from games import selectors
        from games.services import address_hashes_forget_for

        game_readers_provide(
            GameReaders(
                token_user_and_game=selectors.token_user_and_game, game_find=selectors.game_find
            )
        )
        account_games_provide(
            AccountGames(
                dealt_from=selectors.games_dealt_from,
                ranked_played=selectors.ranked_game_played,
                active_since=selectors.accounts_active_since,
                standing=selectors.account_standing_shown,
                client_hashes_forget=address_hashes_forget_for,
            )
        )
