"""The account forms of the web pages: the same username rule as the API (games.accounts)."""

from __future__ import annotations

from django.contrib.auth.forms import UserCreationForm

from games.accounts import username_validate


class SignupForm(UserCreationForm):
    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        username_validate(username)
        return username
