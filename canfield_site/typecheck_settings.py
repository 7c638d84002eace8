"""Settings for mypy's Django plugin (pyproject.toml [tool.django-stubs]): the project's own.

The plugin imports the settings to learn the installed apps and their models. The project's
settings are production ones unless DJANGO_DEBUG says otherwise, and production ones refuse to
load without secrets; the type check needs none, so it asks for the development ones.
"""

import os

os.environ["DJANGO_DEBUG"] = "1"

from canfield_site.settings import *  # noqa: E402, F403
