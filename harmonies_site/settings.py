"""One settings module, read from the environment.

With nothing set the site is whole on a bare machine, all under var/ (VAR_DIR): SQLite, a broker
made of folders (kombu's filesystem transport, var/broker/), a cache of files that every process
shares (var/cache/), mail printed and kept in var/mail/. `make run` starts the web server, the
workers and beat on it (Procfile.dev), so emails deferred while a player watched, time limits,
reminders and digests happen as in production, and the bots' slow work stays out of requests.
Setting DATABASE_URL and REDIS_URL gives the production shape: PostgreSQL, Redis as cache and
broker. CELERY_TASK_ALWAYS_EAGER=true (without REDIS_URL) runs tasks inside the process that
queues them and caches in its memory: one process only, for scripts; the test suite asks for the
same in tests/conftest.py.
"""

from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONCE, NONE, SELF
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)
# What the site keeps on this machine when nothing else is set: database, broker, cache, mail.
VAR_DIR = Path(env.str("VAR_DIR", default=str(BASE_DIR / "var")))

DEBUG = env.bool("DEBUG", default=True)
DEVELOPMENT_SECRET_KEY = "django-insecure-development-only-key-change-me-in-production-0123456789"
# Required in production: with the public development key anyone could sign sessions,
# password-reset links and unsubscribe links.
SECRET_KEY = (
    env.str("SECRET_KEY", default=DEVELOPMENT_SECRET_KEY) if DEBUG else env.str("SECRET_KEY")
)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# The public address used in links that leave the site (emails); no trailing slash.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
SITE_NAME = "Harmonies"
# How often a waiting player's page asks whether the game changed.
GAME_POLL_SECONDS = env.int("GAME_POLL_SECONDS", default=3)
# ...and while a bot or a stand-in plays: their turn comes a second or two after the last one.
AUTOMATIC_TURN_POLL_SECONDS = env.int("AUTOMATIC_TURN_POLL_SECONDS", default=1)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    "accounts",
    "games",
    "records",
    "push",
    "webhooks",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Pages are compressed (a 4-player game page: ~89 KB of HTML, ~10 KB on the wire), by Django's
    # GZipMiddleware at a faster level (harmonies_site/compression.py). It pads each response with
    # random bytes against BREACH, and the CSRF token is masked per request, so secrets do not
    # leak through compressed sizes.
    "harmonies_site.compression.GZipMiddleware",
    # Early, so every answer carries the policy, refusals included.
    "csp.middleware.CSPMiddleware",
    # Refusals in words answer htmx with 200 (the status in a header): see the class.
    "harmonies_site.middleware.HtmxRefusalsMiddleware",
    "harmonies_site.middleware.RejectNulBytesMiddleware",
    "harmonies_site.middleware.ExplainMethodNotAllowedMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "harmonies_site.client_address.ClientAddressMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The visitor's language (cookie, then Accept-Language); a member's profile overrides it below.
    "django.middleware.locale.LocaleMiddleware",
    # After the session, before anything that reads the user: only the session says who is in.
    "harmonies_site.middleware.PrivatePagesMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A session of an account staff suspended: logged out, and told why (its POST never runs).
    "accounts.moderation.SuspendedSessionMiddleware",
    # ?lang= switches the language; the cookie keeps a member's (accounts/language.py says how).
    "accounts.language.MemberLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks, so it sees the outcome of authentication.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "harmonies_site.urls"
WSGI_APPLICATION = "harmonies_site.wsgi.application"
ASGI_APPLICATION = "harmonies_site.asgi.application"

CONTEXT_PROCESSORS = [
    "django.template.context_processors.request",
    "django.contrib.auth.context_processors.auth",
    "django.contrib.messages.context_processors.messages",
    "harmonies_site.context_processors.site",
    "accounts.context_processors.user_timezone",
    "accounts.language.member_language",
    "games.context_processors.waiting",
    "games.context_processors.invitation_in_next",
    "webhooks.context_processors.table_channel",  # a function; it reads only when a page calls it
]
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": CONTEXT_PROCESSORS},
    },
    # The game page, its fragments and the table talk (games/jinja.py says why).
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "games.jinja.environment",
            "context_processors": CONTEXT_PROCESSORS,
        },
    },
]

# --- Database ---------------------------------------------------------------------------------
# Beyond one machine (docs/operating.md, "Running at scale"): DATABASE_POOL=N gives each process
# psycopg's pool of at most N connections instead of one kept per thread; PGBOUNCER=true when
# DATABASE_URL names PgBouncer in transaction mode, where a connection changes under the
# process between transactions, so no server-side cursor and no prepared statement may span
# them (advisory locks here are per transaction and safe).
DATABASE_POOL = env.int("DATABASE_POOL", default=0)
PGBOUNCER = env.bool("PGBOUNCER", default=False)
if env.str("DATABASE_URL", default=""):
    DATABASES = {"default": env.db("DATABASE_URL")}
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    options = DATABASES["default"].setdefault("OPTIONS", {})
    if DATABASE_POOL:
        # Django keeps a pooled connection for the request only: CONN_MAX_AGE must be 0.
        options["pool"] = {"min_size": 1, "max_size": DATABASE_POOL, "timeout": 10}
        DATABASES["default"]["CONN_MAX_AGE"] = 0
    else:
        DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
    if PGBOUNCER:
        DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
        options["prepare_threshold"] = None
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
            "OPTIONS": {
                # Concurrent writers queue on the lock instead of failing with "database is locked".
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache, Celery -----------------------------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
# Tasks run inside the process that queues them, right after its commit: only when asked.
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
# Without Redis, and unless tasks run in-process, the broker is a set of folders (messages are
# files, claimed by a rename) and the cache is files too: presence, versions and hints written by
# one process (a worker, the web server) must be read by the others.
BROKER_DIR = VAR_DIR / "broker"
FILE_BROKER = not REDIS_URL and not CELERY_TASK_ALWAYS_EAGER
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "harmonies_site.cache.RedisCache",  # one client per pool: see cache.py
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="harmonies"),
            # The cache only saves work (versions, presence): a Redis that hangs must cost a
            # request a fraction of a second, not redis-py's default of 5 s per call.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
elif FILE_BROKER:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": VAR_DIR / "cache",
            # Past MAX_ENTRIES Django deletes a third of the files at random: keep it far away.
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    # Queueing happens inside a request (after its commit): a Redis that hangs must not hold a
    # move's answer for long. Without socket timeouts a publish waited 40 s; with these, about
    # 4 s, and 0.1 s when Redis refuses. A task that could not be queued is picked up by the
    # periodic sweeps. socket_timeout stays above kombu's 1 s BRPOP wait, which the worker's
    # connection relies on.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": 3600,
        "socket_timeout": 2,
        "socket_connect_timeout": 1,
    }
elif FILE_BROKER:
    CELERY_BROKER_URL = "filesystem://localhost//"  # a host named: kombu warns without one
    # Producers write into "queue", consumers read from it (both folders are the same one);
    # a taken message is renamed into "processed" (the same disk, so only one worker gets it)
    # and pruned there after a day (harmonies_site/celery.py). "control" holds the bindings.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "store_processed": True,
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "polling_interval": 0.5,  # how often an idle worker looks into the folder
    }
    for folder in ("queue", "processed", "control"):
        (BROKER_DIR / folder).mkdir(parents=True, exist_ok=True)
else:
    CELERY_BROKER_URL = "memory://"  # never used: every task runs in-process
    CELERY_BROKER_TRANSPORT_OPTIONS = {}
CELERY_TASK_EAGER_PROPAGATES = DEBUG
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_TIMEZONE = "UTC"
# Fair queues: bot turns (up to 2-3 s of CPU each, and one player can seat many bots) have their own
# queue, so no amount of bot work delays an email. Mail and finalizing a game (which sends the
# game-over emails) share "mail"; the sweeps and the records stay on Celery's default queue. A
# worker started without -Q consumes all three; in production give "bots" its own workers:
#   celery -A harmonies_site worker -Q celery,mail    and    celery -A harmonies_site worker -Q bots
# Routes are by task name; in-process (eager) runs ignore them.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = (Queue("celery"), Queue("bots"), Queue("mail"))
CELERY_TASK_ROUTES = {
    "games.play_automatic_turn": {"queue": "bots"},
    "games.review_seat": {"queue": "bots"},
    "games.make_hint": {"queue": "bots"},
    "games.finalize_game": {"queue": "mail"},
    "games.notify_turn": {"queue": "mail"},
    "games.send_reminder": {"queue": "mail"},
    "games.send_digest": {"queue": "mail"},
    "games.notify_game_over": {"queue": "mail"},
    "games.notify_timeout": {"queue": "mail"},
    "games.notify_invitation": {"queue": "mail"},
    "games.notify_table_started": {"queue": "mail"},
    "games.notify_invitation_declined": {"queue": "mail"},
    "games.notify_table_cancelled": {"queue": "mail"},
    "accounts.*": {"queue": "mail"},  # account emails (confirmations, notices), if queued
    "push.*": {"queue": "mail"},  # Web Push, each its own task: a slow push service holds no email
    "webhooks.*": {"queue": "mail"},  # chat webhooks, each post its own task (webhooks/tasks.py)
}

# --- Auth ----------------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "accounts.backends.PlayerBackend",  # canonical usernames; bots never log in
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a reset link works for one day

# Failed logins: 5 wrong passwords for one username from one address lock that pair for 15
# minutes; 20 from one address whatever the usernames refuse that address's wrong passwords for
# 15 minutes, while right ones still log in (accounts/lockout.py reads the two limits).
AXES_HANDLER = "accounts.lockout.AccountAndAddressHandler"
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_ADDRESS_FAILURE_LIMIT = env.int("AXES_ADDRESS_FAILURE_LIMIT", default=20)
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_USERNAME_CALLABLE = "accounts.lockout.lockout_username"  # every spelling is one account
AXES_LOCKOUT_TEMPLATE = "accounts/lockout.html"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# Proxies in front of the site that append to X-Forwarded-For (0: clients connect directly).
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
AXES_CLIENT_IP_CALLABLE = "harmonies_site.client_address.client_address"
RATELIMIT_IP_META_KEY = "harmonies_site.client_address.client_address"
# Password-reset requests per address (never per target email: a stranger could block a
# victim's reset), to keep the form from being used to spam.
PASSWORD_RESET_RATE = env.str("PASSWORD_RESET_RATE", default="5/h")
# ...and reset emails to one address an hour, whoever asks and whether or not it has an account:
# past it the page says so and sends nothing, so that many client addresses cannot flood one
# victim's mailbox.
PASSWORD_RESET_EMAILS_PER_HOUR = env.int("PASSWORD_RESET_EMAILS_PER_HOUR", default=3)
# Wrong current passwords per player on the profile's forms (new email, new password), before
# they are refused without being checked: a logged-in session must not be a guessing machine.
CURRENT_PASSWORD_FAILURE_RATE = env.str("CURRENT_PASSWORD_FAILURE_RATE", default="5/15m")
# Sign-ups per client address, and emails about an account (confirmation links of sign-ups,
# resends and new addresses; "already in use" notices) to one typed address, whoever asks.
SIGNUP_RATE = env.str("SIGNUP_RATE", default="5/h")
CONFIRMATION_EMAIL_RATE = env.str("CONFIRMATION_EMAIL_RATE", default="3/h")
# Sign-up confirmation links: how long one works, and how often a player may ask for another.
EMAIL_CONFIRMATION_MAX_AGE = 60 * 60 * 24 * 3
EMAIL_CONFIRMATION_RESEND_RATE = env.str("EMAIL_CONFIRMATION_RESEND_RATE", default="3/h")
# How long the unsubscribe link at the foot of an email works (used once, it stops at once).
UNSUBSCRIBE_LINK_MAX_AGE = timedelta(days=60)
# A deleted account's username (and its look-alikes) stays out of reach this many days, so that
# nobody poses as the player who left while the others still remember the name.
RETIRED_USERNAME_DAYS = env.int("RETIRED_USERNAME_DAYS", default=180)

# --- I18n, static ------------------------------------------------------------------------------
# English, French and German (docs/languages.md). A visitor reads the language their browser asks
# for (LocaleMiddleware, then the language cookie a choice sets); a member reads the language of
# their profile (accounts.language.MemberLanguageMiddleware); emails follow the recipient. URLs
# carry no language. English is the fallback for anything else, an unknown code included.
LANGUAGE_CODE = "en-gb"
LANGUAGES = [("en-gb", "English"), ("fr", "Français"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# In development whitenoise serves straight from static/ (no collectstatic needed).
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG

# --- Mail --------------------------------------------------------------------------------------
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Harmonies <play@harmonies.localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
if env.str("EMAIL_URL", default=""):
    vars().update(env.email_url("EMAIL_URL"))
else:
    # EMAIL_BACKEND/EMAIL_FILE_PATH let a test's Celery worker write its mail where the test reads.
    EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="harmonies_site.mail.ConsoleAndFileBackend")
    EMAIL_FILE_PATH = Path(env.str("EMAIL_FILE_PATH", default=str(VAR_DIR / "mail")))

# Invitations by email address a player may send in a day (games.services.invitations): each is
# an email to someone who may never have heard of the site, and sock puppets cost nothing. A few
# while the account is new (younger than INVITATIONS_TRUSTED_AFTER_DAYS, or without a finished
# game that counts); after that as many as may wait for an answer at once (MAX_PENDING_INVITATIONS).
ADDRESS_INVITATIONS_PER_DAY_NEW = env.int("ADDRESS_INVITATIONS_PER_DAY_NEW", default=3)
ADDRESS_INVITATIONS_PER_DAY = env.int("ADDRESS_INVITATIONS_PER_DAY", default=50)
INVITATIONS_TRUSTED_AFTER_DAYS = env.int("INVITATIONS_TRUSTED_AFTER_DAYS", default=7)
# "Play again" clicks per player: each may invite (and so email) the old game's players.
REMATCH_OFFER_RATE = env.str("REMATCH_OFFER_RATE", default="10/h")

# --- Web Push (the push app) -------------------------------------------------------------------
# Notifications on players' devices, offered only when all three are set. `python manage.py
# vapid_keys` prints a pair: the public key as base64url of the 65-byte uncompressed point, the
# private key as base64url (raw 32 bytes, or DER). The subject is a mailto: or https: address
# where push services can reach the site's operator.
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="")
# Tests only: a push service on this machine (loopback, any port), trusted through this CA file.
PUSH_ALLOW_PRIVATE_ENDPOINTS = env.bool("PUSH_ALLOW_PRIVATE_ENDPOINTS", default=False)
PUSH_CA_BUNDLE = env.str("PUSH_CA_BUNDLE", default="")

# --- Security (production) ------------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
CSRF_FAILURE_VIEW = "harmonies_site.views.csrf_failure"
CSRF_COOKIE_HTTPONLY = False  # htmx reads no cookie (the token is in hx-headers), but forms may.
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Enforced everywhere (development included, so a page that breaks it shows at once): scripts and
# styles come from our own static files, or carry the request's nonce (request.csp_nonce). No
# inline style= attributes, no on...= handlers, no hx-on (htmx evaluates those); htmx's own
# indicator <style> is switched off in base.html. Browsers report violations to /csp-report/.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [NONE],
        "object-src": [NONE],
        "report-uri": ["/csp-report/"],
    }
}
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"axes": {"level": "WARNING"}},
}
if CELERY_TASK_ALWAYS_EAGER:
    # Tasks run inside the web process: their "succeeded" lines and the in-memory broker's
    # notice about a missing hostname would drown out the development server's own output.
    LOGGING["loggers"].update(
        {"celery.app.trace": {"level": "WARNING"}, "kombu": {"level": "ERROR"}}
    )
