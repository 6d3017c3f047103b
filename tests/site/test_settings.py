import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.core import mail

ROOT = Path(__file__).resolve().parents[2]

PRODUCTION_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "p" * 20 + "-a-long-random-production-secret-" + "q" * 20,
    "ALLOWED_HOSTS": "harmonies.example",
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/harmonies",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "EMAIL_URL": "smtp+tls://mailer:secret@smtp.example:587",
    "SITE_URL": "https://harmonies.example",
}


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in PRODUCTION_ENV and k != "CI"}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_deploy_check_is_clean_with_production_settings():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_settings_use_postgres_redis_smtp_and_secure_cookies():
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CACHES['default']['BACKEND'],"
        " s.CELERY_BROKER_URL, s.CELERY_TASK_ALWAYS_EAGER, s.EMAIL_BACKEND, s.EMAIL_HOST,"
        " s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE)"
    )
    result = run_manage("shell", "--no-imports", "-c", code, env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "harmonies_site.cache.RedisCache",
        "redis://127.0.0.1:6379/0",
        "False",
        "django.core.mail.backends.smtp.EmailBackend",
        "smtp.example",
        "True",
        "True",
    ]


# What the environment may hold that changes the shape; "nothing set" removes all of it.
SHAPING = {
    "DATABASE_URL", "REDIS_URL", "CI", "CELERY_TASK_ALWAYS_EAGER", "VAR_DIR", "EMAIL_URL",
    "EMAIL_BACKEND", "EMAIL_FILE_PATH", "SITE_URL", "DEBUG",
}  # fmt: skip
SHAPE = (
    "from django.conf import settings as s;"
    "print(s.DATABASES['default']['ENGINE'], s.CACHES['default']['BACKEND'],"
    " s.CELERY_BROKER_URL, s.CELERY_TASK_ALWAYS_EAGER, s.EMAIL_BACKEND,"
    " s.DATABASES['default']['OPTIONS'].get('transaction_mode'));"
    "print(s.CACHES['default'].get('LOCATION', ''));"
    "print(*sorted(f'{k}={v}' for k, v in s.CELERY_BROKER_TRANSPORT_OPTIONS.items()))"
)


def settings_with(env: dict[str, str]) -> list[list[str]]:
    """The settings' shape read by a fresh process whose environment is `env` and no more."""
    clean = {k: v for k, v in os.environ.items() if k not in SHAPING}
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", SHAPE],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return [line.split() for line in result.stdout.splitlines()]


def test_with_nothing_set_the_site_embeds_a_broker_and_a_cache_its_processes_share(tmp_path):
    shape, cache_folder, broker = settings_with({"VAR_DIR": str(tmp_path)})
    assert shape == [
        "django.db.backends.sqlite3",
        "django.core.cache.backends.filebased.FileBasedCache",
        "filesystem://localhost//",
        "False",  # tasks wait for a worker: none runs inside a request
        "harmonies_site.mail.ConsoleAndFileBackend",
        "IMMEDIATE",
    ]
    assert cache_folder == [str(tmp_path / "cache")]
    options = dict(option.split("=", 1) for option in broker)
    assert options["data_folder_in"] == options["data_folder_out"] == str(tmp_path / "broker/queue")
    assert options["processed_folder"] == str(tmp_path / "broker/processed")
    assert options["control_folder"] == str(tmp_path / "broker/control")
    # The folders are made by the settings: a first `make run` finds them.
    assert {p.name for p in (tmp_path / "broker").iterdir()} == {"queue", "processed", "control"}


def test_without_a_var_folder_the_default_is_the_checkouts_own(tmp_path):
    _shape, cache_folder, _broker = settings_with({})
    assert cache_folder == [str(ROOT / "var" / "cache")]


def test_tasks_run_in_process_only_when_asked_and_then_the_cache_is_the_processs():
    shape, cache_folder, broker = settings_with({"CELERY_TASK_ALWAYS_EAGER": "true"})
    assert shape[1:4] == ["django.core.cache.backends.locmem.LocMemCache", "memory://", "True"]
    assert cache_folder == broker == []


def test_development_mail_is_printed_and_kept_as_a_file(tmp_path, settings, capsys):
    settings.EMAIL_BACKEND = "harmonies_site.mail.ConsoleAndFileBackend"
    settings.EMAIL_FILE_PATH = tmp_path
    sent = mail.send_mail("Your turn", "Bob played.", None, ["alice@example.com"])
    assert sent == 1
    assert "Bob played." in capsys.readouterr().out
    (kept,) = tmp_path.iterdir()
    assert "Bob played." in kept.read_text()


def test_celery_tasks_are_json_only_and_keep_no_results():
    assert settings.CELERY_TASK_SERIALIZER == "json"
    assert settings.CELERY_ACCEPT_CONTENT == ["json"]
    assert settings.CELERY_TASK_IGNORE_RESULT is True
