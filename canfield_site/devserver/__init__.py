"""The development server (`make run`): `manage.py runserver` as daphne's, with WebSockets
closed as in production (listed before daphne in INSTALLED_APPS, so that its command wins)."""
