"""Settings for Canfield Club: one module, driven by environment variables.

Without DJANGO_DEBUG these are the production settings: no server starts without its secrets
(DJANGO_SECRET_KEY, DAILY_SECRET), so a deployment that forgets a variable fails loudly instead
of dealing dailies anyone with the repository can compute. Development asks for debug
(DJANGO_DEBUG=1: `make run`, tests/settings.py), and then every other variable has a default
good for a developer machine; production also sets ALLOWED_HOSTS, DATABASE_URL and REDIS_URL.
"""

import hashlib
import os
import re
import tempfile
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

# Django's generic classes subscriptable at run time (`admin.ModelAdmin[Game]`), as the type
# checker reads them (django-stubs).
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", False)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off (the default; development "
            "runs with DJANGO_DEBUG=1, as `make run` does)"
        )
    SECRET_KEY = "dev-only-insecure-secret-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# Browser apps on any origin may call the API and the OAuth doors a page's script needs (token,
# revoke, register, metadata) with a bearer token: `Access-Control-Allow-Origin: *` and never
# `Allow-Credentials`, so a cross-origin page cannot use a visitor's session cookie. The pages
# that read that cookie (the site, /oauth/authorize, admin) answer no CORS header at all.
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_CREDENTIALS = False
CORS_URLS_REGEX = (
    r"^/(api/v1/.*|oauth/(token|revoke|register)|\.well-known/oauth-authorization-server)$"
)
# Third-party pages whose scripts may open the WebSockets, which a browser opens with the
# visitor's cookies (canfield_site.asgi.BrowserOriginValidator); HTTP needs no list (above).
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS", "")
CORS_EXPOSE_HEADERS = [
    "Deprecation",
    "Sunset",
    "Link",
    "Retry-After",
    "X-Request-ID",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "ETag",  # an analysis's (R37), for If-None-Match
]

# HTTPS hardening, on by default when DEBUG is off. The reverse proxy (deploy/nginx.conf.template)
# always overwrites X-Forwarded-Proto, which makes trusting it safe; the app servers are never
# exposed directly. SECURE_SSL_REDIRECT=0 serves plain HTTP (loopback tests, TLS-less staging).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)

# How many proxies we deploy in front of the app (core/clients.py): 1 in the production
# topology, whose nginx overwrites X-Forwarded-For; 0 (trust no header) in development.
PROXY_COUNT = int(os.environ.get("PROXY_COUNT", "0"))
# Key of the client-address hashes kept for the fair-play review; empty: derived from SECRET_KEY.
ADDRESS_HASH_SECRET = os.environ.get("ADDRESS_HASH_SECRET", "")
# ... kept this many days (`manage.py forget_addresses` empties older ones).
ADDRESS_HASH_DAYS = int(os.environ.get("ADDRESS_HASH_DAYS", "30"))
# Account events (accounts/events.py) are kept this many days (`manage.py forget_events`).
EVENTS_KEPT_DAYS = int(os.environ.get("EVENTS_KEPT_DAYS", "7"))

INSTALLED_APPS = [
    "canfield_site.devserver",  # its `runserver` is daphne's, closing WebSockets as uvicorn does
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "corsheaders",
    "axes",
    "csp",
    "drf_spectacular_sidecar",
    "core",
    "canfield_site",
    "keys",  # migrations only (keys/apps.py)
    "accounts",
    "games",
    "leaderboard",
    "fairplay",
    "matches",
    "oauth2_provider",
    "web",
]

MIDDLEWARE = [
    # First: probes skip host checks, the HTTPS redirect and the log; every other request gets
    # an id and its log line, whatever later middleware answers.
    "canfield_site.middleware.HealthCheckMiddleware",
    "canfield_site.middleware.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After static files (no cookie on them): a browser's device cookie, for the fair-play
    # review's device links (core/clients.py).
    "core.clients.DeviceCookieMiddleware",
    # After sessions, before common: the language comes from the switcher's cookie, else the
    # browser's Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    # RateLimit-* headers on throttled answers (CORS_EXPOSE_HEADERS shows them to browsers).
    "core.throttling.RateLimitHeadersMiddleware",
    # Deprecation, Sunset and Link on the answers of deprecated operations (docs/api.md).
    "canfield_site.deprecation.DeprecationHeadersMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last of the working ones, as django-axes asks: turns a locked-out login into its answer.
    "axes.middleware.AxesMiddleware",
    # Under ASGI, the chain above in one thread (canfield_site/middleware.py).
    "canfield_site.middleware.SyncChainMiddleware",
]

ROOT_URLCONF = "canfield_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # Before the apps' templates: the CSP-clean API docs page (drf_spectacular/).
        "DIRS": [BASE_DIR / "canfield_site" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.context.guest",
            ],
        },
    },
]

WSGI_APPLICATION = "canfield_site.wsgi.application"
ASGI_APPLICATION = "canfield_site.asgi.application"

# DATABASE_URL, else PostgreSQL from POSTGRES_HOST and its parts (docker-compose.yml: the password
# is never pasted into a URL, so any character in it is safe), else SQLite in the project dir.
conn_max_age = int(os.environ.get("CONN_MAX_AGE", "60"))
# Django's own configuration dicts: any value its backends take (the typed edge is Django's).
DATABASES: dict[str, dict[str, Any]]
if not os.environ.get("DATABASE_URL") and os.environ.get("POSTGRES_HOST"):
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.postgresql",
            "HOST": os.environ["POSTGRES_HOST"],
            "PORT": os.environ.get("POSTGRES_PORT", "5432"),
            "NAME": os.environ.get("POSTGRES_DB", "canfield"),
            "USER": os.environ.get("POSTGRES_USER", "canfield"),
            "PASSWORD": os.environ.get("POSTGRES_PASSWORD", ""),
            "CONN_MAX_AGE": conn_max_age,
            "CONN_HEALTH_CHECKS": True,
        }
    }
else:
    DATABASES = {
        "default": dict(
            dj_database_url.parse(
                os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
                conn_max_age=conn_max_age,
                conn_health_checks=True,
            )
        )
    }
# Behind PgBouncer in transaction mode (DATABASE_POOLER=pgbouncer: compose, the topology with
# PGBOUNCER=1; docs/deploy.md, "Connection pooling") a server connection serves one transaction
# and then another client: no session state may outlive a transaction. So no server-side
# cursors (a named cursor lives across transactions), no prepared statements (psycopg prepares
# a query it sees often, on one server connection), advisory locks only at transaction level
# (accounts/identity.py), and the server connections start in UTC (scripts/pgbouncer-conf.py).
# Django's own connections to the pooler are cheap: CONN_MAX_AGE keeps them as before.
DATABASE_POOLER = os.environ.get("DATABASE_POOLER", "")
if DATABASE_POOLER not in ("", "pgbouncer"):
    raise ImproperlyConfigured("DATABASE_POOLER is empty or pgbouncer")
if DATABASE_POOLER:
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = None
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Straight to PostgreSQL: parameters bound by the server, and a query run twice on a
    # connection prepared there (psycopg), so that PostgreSQL parses and plans an action's
    # read and write once per connection, not once per action: its CPU per action 1.5-1.6 ->
    # 0.8 ms, validated actions/s up 10-20 % (bench/api.py, docs/benchmarks.md). Behind
    # PgBouncer (above) the client binds them, as a pooled connection may change hands.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=2
    )
# Under ASGI (the ws processes, scripts/serve-ws.sh: game streams, account events and the boards'
# sockets; the tests' server) Django runs each HTTP request in a thread of its own, and that
# thread's connection ends with it: every request opened a PostgreSQL connection, ~7 ms of CPU
# between the server and PostgreSQL (15 -> 8 ms a `GET daily` on this machine with the pool,
# prepared statements kept). DATABASE_POOL_SIZE > 0 gives the process a pool of at most that many
# connections (Django's, psycopg_pool) that requests borrow and hand back; a request waits at most
# 5 s for one, then answers 503 `unavailable` like any database outage. serve-ws.sh sets 16.
# 0 (the default): one persistent connection per thread (CONN_MAX_AGE), as gunicorn's workers and
# threads keep theirs.
DATABASE_POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "0"))
if DATABASE_POOL_SIZE > 0 and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": DATABASE_POOL_SIZE,
        "timeout": 5,
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # (a connection goes back to the pool instead)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite: no persistent connections (threads in tests), wait on locks instead of failing.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20

# Daily challenges: the deals are keyed by this secret, used for nothing else (nobody can compute
# a deal without it, and rotating SECRET_KEY never changes them); required, 50+ random
# characters, when DEBUG is off (canfield_site/checks.py). The day ends at midnight in this zone.
DAILY_SECRET = os.environ.get("DAILY_SECRET", "")
if not DAILY_SECRET and DEBUG:
    DAILY_SECRET = "dev-only-insecure-daily-secret-do-not-use-in-production"
DAILY_TIME_ZONE = os.environ.get("DAILY_TIME_ZONE", "UTC")
# R29: the solver's budget per deal when a daily challenge is created.
DAILY_SOLVE_SECONDS = float(os.environ.get("DAILY_SOLVE_SECONDS", "10"))
# R32: the key of every match deal (matches.deals), a secret used for nothing else; required
# when DJANGO_DEBUG=0 (check canfield.E003).
MATCH_SECRET = os.environ.get("MATCH_SECRET", "")
if not MATCH_SECRET and DEBUG:
    MATCH_SECRET = "dev-only-insecure-match-secret-do-not-use-in-production"
# Solver-proved match deals kept ready per draw mode (`manage.py fill_match_deals`, scheduler).
MATCH_POOL_SIZE = int(os.environ.get("MATCH_POOL_SIZE", "200"))

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # The layer waits on Redis in blocking reads of 5 s: a socket timeout at or
                # under that ends every idle read in an error (and, once, every idle live
                # board with it). Longer than the read, a dead Redis is still noticed.
                "hosts": [
                    {"address": REDIS_URL, "socket_timeout": 15, "socket_connect_timeout": 2}
                ],
            },
        }
    }
    CACHES = {
        "default": {
            # Throttle counters and games' logs and replay frames (games.api.log_payload): while
            # Redis is down, requests go on unthrottled and logs are read from the database.
            "BACKEND": "core.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# A board whose ranking Redis lost (a Redis restarted empty) is rebuilt by the read that finds it
# missing when it has at most this many entries; a bigger one is rebuilt in the background while
# reads count with a stand-in (leaderboard.boards.RankingStandIn).
BOARD_REBUILD_INLINE_MAX = int(os.environ.get("BOARD_REBUILD_INLINE_MAX", "2000"))

# WebSockets (core/sockets.py): a client frame or message over WS_MAX_MESSAGE bytes
# closes its socket with 1009 before it is read (scripts/serve-ws.sh gives uvicorn the same
# limit; daphne's `runserver` reads these two settings); at most WS_PER_ADDRESS sockets per
# client address, counted in Redis across processes (else in this process).
WS_MAX_MESSAGE = 4096
DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE = WS_MAX_MESSAGE
DAPHNE_WEBSOCKET_MAX_FRAME_SIZE = WS_MAX_MESSAGE
WS_PER_ADDRESS = int(os.environ.get("WS_PER_ADDRESS", "50"))
# Open game streams (games/streams.py) per client address and per account, counted as the
# sockets are.
STREAMS_PER_ADDRESS = int(os.environ.get("STREAMS_PER_ADDRESS", "50"))
STREAMS_PER_ACCOUNT = int(os.environ.get("STREAMS_PER_ACCOUNT", "20"))

# Django's default list, spelled out so that tests/settings.py can put a fast hasher first. The
# first is Django's PBKDF2 (same algorithm, same hashes) hashing in one of the host's
# AUTH_CONCURRENCY slots (accounts.identity.SlotPBKDF2PasswordHasher, docs/fairplay.md, "Floods").
PASSWORD_HASHERS = [
    "accounts.identity.SlotPBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]

# django-axes checks every password door first: a locked account or address is refused before
# any password is hashed. Failures count per (account, client address) pair and per client
# address (IPv6: per /64), in the database: guessing from one address locks that address out,
# never the account's owner elsewhere.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = int(os.environ.get("LOGIN_LOCKOUT_MINUTES", "15")) / 60  # hours
# A failure while locked out does not push the end of the lock-out further (Retry-After holds).
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# A success clears nothing: axes would clear the address's failures too, so an attacker's own
# account would reset the count of the account under attack. Failures expire with the cool-off.
AXES_RESET_ON_SUCCESS = False
# No log of successful logins (it would keep raw addresses for ever).
AXES_DISABLE_ACCESS_LOG = True
AXES_CLIENT_IP_CALLABLE = "core.clients.client_key"
AXES_USERNAME_CALLABLE = "accounts.identity.attempted_username"
AXES_LOCKOUT_CALLABLE = "accounts.identity.lockout_response"
AXES_VERBOSE = False
# Each account's budget of wrong passwords an hour from all addresses together (ASVS V2.2.1):
# once spent, its password doors answer 429 to the clients it does not know, never hashing;
# its owner keeps the browsers and addresses its games were dealt from, and its sessions and
# keys (accounts.identity.BudgetedAxesHandler, docs/fairplay.md).
AXES_HANDLER = "accounts.identity.BudgetedAxesHandler"
ACCOUNT_FAILURE_BUDGET = int(os.environ.get("ACCOUNT_FAILURE_BUDGET", "100"))
# Accounts created per client address and hour, on the web and through the API.
SIGNUP_LIMIT = int(os.environ.get("SIGNUP_LIMIT", "5"))
# Guests ("Play now" without an account) created per client address and hour; a guest unused
# this many days is removed (`manage.py remove_guests`, run by the scheduler).
GUEST_LIMIT = int(os.environ.get("GUEST_LIMIT", "20"))
GUEST_DAYS = int(os.environ.get("GUEST_DAYS", "30"))
# Guests created per minute from all addresses together: a crowd of addresses cannot make
# guests (each an account, a session and a game) faster than this.
GUEST_GLOBAL_LIMIT = int(os.environ.get("GUEST_GLOBAL_LIMIT", "30"))
GUEST_GLOBAL_BURST = int(os.environ.get("GUEST_GLOBAL_BURST", "1"))
# The most actions a game's log holds (then only a resign is taken: 409 game_too_long). Real
# games stay far below (docs/api.md: the longest of 600 simulated deals, undo included, took
# 1,194); a log's replay and read cost grow with it.
GAME_MAX_ACTIONS = int(os.environ.get("GAME_MAX_ACTIONS", "3000"))
# How long a game's rendered log (API reads) and replay frames stay cached, keyed by the game
# and its action count (a log only grows: a newer action is a new key).
GAME_LOG_CACHE_SECONDS = int(os.environ.get("GAME_LOG_CACHE_SECONDS", "600"))
# A deleted account's name is refused to new accounts for this many days (accounts.identity:
# kept as a keyed hash of the name, not the name).
DELETED_NAME_DAYS = int(os.environ.get("DELETED_NAME_DAYS", "180"))
# A game other than a daily one (or a match's) left this many days without an action is ended
# by the server (`manage.py end_idle_games`); it never counts in statistics.
IDLE_GAME_DAYS = int(os.environ.get("IDLE_GAME_DAYS", "7"))
# R36: an account plays ranked dailies and rated matches once it is in good standing: this many
# hours since sign-up and this many finished games of any kind. Before that its daily game is
# provisional (listed apart from the board's ranks) and a rated match answers 403 `standing`;
# throwaway accounts made to scout a day's deal never rank.
RANKED_MIN_AGE_HOURS = float(os.environ.get("RANKED_MIN_AGE_HOURS", "24"))
RANKED_MIN_GAMES = int(os.environ.get("RANKED_MIN_GAMES", "3"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("hu", "Magyar"), ("pl", "Polski")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "canfield_site.storage.StaticFilesStorage"
        )
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# A 1 MB body must get a clean 400, never a 5xx: cap what Django reads.
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Every view checks its scope (accounts/scopes.py); views that set their own classes add it.
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
        "accounts.scopes.ScopeRequired",
    ],
    "DEFAULT_RENDERER_CLASSES": ["core.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["core.parsers.JSONBodyParser"],
    "DEFAULT_SCHEMA_CLASS": "canfield_site.schema.AutoSchema",
    "EXCEPTION_HANDLER": "core.errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "register": os.environ.get("THROTTLE_REGISTER", "30/hour"),
        "token": os.environ.get("THROTTLE_TOKEN", "60/hour"),
        "actions": os.environ.get("THROTTLE_ACTIONS", "6000/minute"),
        "hints": os.environ.get("THROTTLE_HINTS", "60/minute"),
        "account": os.environ.get("THROTTLE_ACCOUNT", "30/hour"),
        "hints_address": os.environ.get("THROTTLE_HINTS_ADDRESS", "120/minute"),
        "matches": os.environ.get("THROTTLE_MATCHES", "120/hour"),
        "challenges": os.environ.get("THROTTLE_CHALLENGES", "20/hour"),
        "export": os.environ.get("THROTTLE_EXPORT", "10/hour"),
        "games": os.environ.get("THROTTLE_GAMES", "30/minute"),
        "games_burst": os.environ.get("THROTTLE_GAMES_BURST", "1/second"),
        "games_address": os.environ.get("THROTTLE_GAMES_ADDRESS", "60/minute"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

# Redirect URI schemes of OAuth apps: https only in production, development adds http (apps on
# this machine); http to a loopback IP (127.0.0.1, [::1]) is always allowed, on any port
# (native apps, RFC 8252 7.3).
OAUTH_REDIRECT_SCHEMES = env_list("OAUTH_REDIRECT_SCHEMES", "http,https" if DEBUG else "https")
# Apps registered through POST /oauth/register (RFC 7591) per client address and hour.
OAUTH_REGISTER_LIMIT = int(os.environ.get("OAUTH_REGISTER_LIMIT", "10"))
# A self-registered app with no token or grant left is removed this many days after its
# registration (`manage.py forget_oauth`, run by the scheduler).
OAUTH_APP_DAYS = int(os.environ.get("OAUTH_APP_DAYS", "30"))
# The toolkit warns of http redirect URIs (W008): ours are loopback ones only (above).
SILENCED_SYSTEM_CHECKS = ["oauth2_provider.W008"]

# OAuth 2.0 for third-party apps (accounts/oauth.py): authorization code with PKCE, S256 only; no
# implicit or password grant; tokens stored as checksums only; the API's four scopes.
OAUTH2_PROVIDER = {
    "SCOPES_BACKEND_CLASS": "accounts.oauth.ApiScopes",
    # Public clients' secrets refused without a hash; a re-used code revokes its tokens.
    "OAUTH2_VALIDATOR_CLASS": "accounts.oauth.Validator",
    "PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    # RFC 8414: public clients (PKCE, no secret) authenticate at the token endpoint with "none".
    "OAUTH2_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": [
        "client_secret_post",
        "client_secret_basic",
        "none",
    ],
    # The toolkit's own check lets http through for the loopback redirects of native apps
    # (RFC 8252 7.3: any port); accounts.oauth.Validator allows http nowhere else unless
    # OAUTH_REDIRECT_SCHEMES (above) says so.
    "ALLOWED_REDIRECT_URI_SCHEMES": sorted({*OAUTH_REDIRECT_SCHEMES, "http"}),
    # Advertises `registration_endpoint` (RFC 8414); the endpoint is accounts.oauth.RegisterView,
    # not the toolkit's (which would register confidential clients and answer in English).
    "DCR_ENABLED": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": int(os.environ.get("OAUTH_ACCESS_TOKEN_SECONDS", "3600")),
    "REFRESH_TOKEN_EXPIRE_SECONDS": 30 * 24 * 3600,
    # Tokens that secret scanners recognise: cfo_..., cfr_... (accounts.services, docs/api.md).
    "ACCESS_TOKEN_GENERATOR": "accounts.oauth.access_token_new",
    "REFRESH_TOKEN_GENERATOR": "accounts.oauth.refresh_token_new",
    "ROTATE_REFRESH_TOKEN": True,
    "OAUTH2_GRANT_TYPES_SUPPORTED": ["authorization_code", "refresh_token"],
    "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
}

# Content-Security-Policy on every response (django-csp): only our own scripts and styles; a
# page's inline <script> would need the response's nonce (none uses one).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Canfield Club API",
    "DESCRIPTION": "Canfield solitaire: server-validated games, daily challenges, leaderboards.",
    # One number for the API and its official client, kept in the client's _version.py (read,
    # not imported: the server does not depend on the client package).
    "VERSION": re.search(
        r'__version__ = "([^"]+)"',
        (BASE_DIR / "clients/python/src/canfield_client/_version.py").read_text(),
    ).group(1),  # type: ignore[union-attr]
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # The docs page loads Swagger UI from our own static files, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One enum per set of values, shared by what the server answers and what it accepts.
    "ENUM_NAME_OVERRIDES": {
        "ErrorCodeEnum": "core.errors.CODES",
        "ActionTypeEnum": "games.engine.actions.ACTION_TYPES",
        "PileEnum": "games.engine.actions.PILE_NAMES",
        "ConcretePileEnum": "games.api.CONCRETE_PILES",
        "RulesetEnum": "games.engine.rulesets.RULESETS",
        "DrawEnum": "games.api.DRAW_CHOICES",
        "GameStatusEnum": "games.models.Game.Status",
        "LangEnum": "games.api.LANGUAGES",
        # Each action type's own `type` (the `oneOf` of actions is keyed by it).
        "MoveTypeEnum": ["move"],
        "TapTypeEnum": ["tap"],
        "DrawTypeEnum": ["draw"],
        "RecycleTypeEnum": ["recycle"],
        "UndoTypeEnum": ["undo"],
        "ResignTypeEnum": ["resign"],
        "FinishTypeEnum": ["finish"],
        "MoveErrorCodeEnum": ["illegal_move", "no_destination"],
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "canfield_site.schema.schema_finish",
        "canfield_site.schema.schema_contract",
    ],
}

# One JSON object per line on stdout: a line per request and per rejected action
# (canfield.request), warnings from everything else.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "core.logs.JsonFormatter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "json",
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {
        "canfield": {"level": os.environ.get("REQUEST_LOG_LEVEL", "INFO")},
        # Django's own line for a 4xx/5xx would repeat the request log's.
        "django.request": {"level": "ERROR"},
        # One warning per failed login would flood the log under attack; the request log
        # already has each refused attempt (400 or 429) with its client address.
        "axes": {"level": "ERROR"},
    },
}

# R35 fair-play review (fairplay): `manage.py review_games` reviews ended ranked games for at
# most FAIRPLAY_REVIEW_SECONDS per run; each game gets the signals' fixed budgets (node counts,
# fairplay/signals.py), never a share of the run's time (R35a).
FAIRPLAY_REVIEW_SECONDS = float(os.environ.get("FAIRPLAY_REVIEW_SECONDS", "10"))
# Floods (docs/fairplay.md, "Floods"): the host-wide caps on solver runs (hints) and password
# checks, each a set of slot files in SLOT_DIR (core/slots.py); a request waits up to
# SLOT_WAIT_SECONDS for a free slot, then is answered 503 with Retry-After. The default SLOT_DIR
# is one per checkout, shared by every process of this host that runs from it.
SOLVER_CONCURRENCY = int(os.environ.get("SOLVER_CONCURRENCY", "1"))
AUTH_CONCURRENCY = int(os.environ.get("AUTH_CONCURRENCY", "1"))
SLOT_WAIT_SECONDS = float(os.environ.get("SLOT_WAIT_SECONDS", "5"))
SLOT_DIR = os.environ.get("SLOT_DIR") or os.path.join(
    tempfile.gettempdir(), f"canfield-slots-{hashlib.sha256(bytes(BASE_DIR)).hexdigest()[:12]}"
)
# Hint answers, per position (games/hints.py), are kept this long in the cache.
HINT_CACHE_SECONDS = int(os.environ.get("HINT_CACHE_SECONDS", str(7 * 24 * 3600)))

# Metrics (core/metrics.py, docs/deploy.md, "Metrics and alerts"): the directory where every
# process group of this host (or container set) counts in files of its own
# (scripts/metrics-dir.sh), which `manage.py serve_metrics` adds up on an internal port; empty:
# each process keeps its metrics to itself (development).
METRICS_DIR = os.environ.get("METRICS_DIR", "")

# Error tracking, optional: with SENTRY_DSN set, unhandled errors (each request's 500, whatever
# a command raises) go to Sentry by sentry-sdk's Django integration, without personal data
# (no cookies, bodies or addresses) and without performance traces unless a sample rate asks.
# Unset, sentry-sdk is not even imported.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    import sentry_sdk

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=os.environ.get("SENTRY_ENVIRONMENT", "production"),
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
        send_default_pii=False,
    )
