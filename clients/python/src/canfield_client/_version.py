"""The API's version and this client's: one number, kept here only. The server's OpenAPI schema
reads it (`info.version`, canfield_site/settings.py), the client's package metadata too
(clients/python/pyproject.toml); CHANGELOG.md says what each version changed."""

__version__ = "1.2.0"
