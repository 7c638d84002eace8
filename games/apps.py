from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # The layer below (accounts) reads games and closes streams through what games lends
        # it here: it never imports games (docs/contributing.md, "Layers").
        from accounts.authentication import GameReaders, game_readers_provide
        from accounts.services import credentials_changed_subscribe
        from games.selectors import game_find, token_user_and_game
        from games.streams import credentials_changed

        game_readers_provide(
            GameReaders(token_user_and_game=token_user_and_game, game_find=game_find)
        )
        credentials_changed_subscribe(credentials_changed)
