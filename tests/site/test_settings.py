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


def test_with_nothing_set_the_site_embeds_everything():
    env = {"DEBUG": "true"}
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CACHES['default']['BACKEND'],"
        " s.CELERY_TASK_ALWAYS_EAGER, s.EMAIL_BACKEND,"
        " s.DATABASES['default']['OPTIONS']['transaction_mode'])"
    )
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "CI"}}
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", code],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.sqlite3",
        "django.core.cache.backends.locmem.LocMemCache",
        "True",
        "harmonies_site.mail.ConsoleAndFileBackend",
        "IMMEDIATE",
    ]


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
