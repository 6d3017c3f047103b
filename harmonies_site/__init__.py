"""The Django project; importing Celery here makes `shared_task` bind to our app."""

from .celery import app as celery_app

__all__ = ("celery_app",)
