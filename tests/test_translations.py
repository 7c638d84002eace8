"""The hu and pl catalogues are the translations' source (locale/*/LC_MESSAGES/*.po, edited by
hand or in a gettext tool): every entry is translated and none is fuzzy, every format string
keeps its placeholders (msgfmt --check), and the committed .mo files are what those .po files
compile to, so a translator's edit cannot be forgotten at `compilemessages`."""

import subprocess
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[1] / "locale"
CATALOGUES = sorted(LOCALE.glob("[hp][ul]/LC_MESSAGES/*.po"))


def test_both_languages_have_both_catalogues():
    assert [str(po.relative_to(LOCALE)) for po in CATALOGUES] == [
        "hu/LC_MESSAGES/django.po",
        "hu/LC_MESSAGES/djangojs.po",
        "pl/LC_MESSAGES/django.po",
        "pl/LC_MESSAGES/djangojs.po",
    ]


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda po: str(po.relative_to(LOCALE)))
def test_every_entry_is_translated_and_compiled(po, tmp_path):
    untranslated = subprocess.run(
        ["msgattrib", "--untranslated", "--no-obsolete", str(po)],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    fuzzy = subprocess.run(
        ["msgattrib", "--only-fuzzy", "--no-obsolete", str(po)],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "msgid" not in untranslated, f"untranslated in {po.name}:\n{untranslated}"
    assert "msgid" not in fuzzy, f"fuzzy in {po.name}:\n{fuzzy}"

    compiled = tmp_path / "out.mo"
    check = subprocess.run(
        ["msgfmt", "--check", "-o", str(compiled), str(po)], capture_output=True, text=True
    )
    assert check.returncode == 0, check.stderr
    assert compiled.read_bytes() == po.with_suffix(".mo").read_bytes(), (
        f"{po.with_suffix('.mo')} is not what {po.name} compiles to: run "
        "`DJANGO_DEBUG=1 .venv/bin/python manage.py compilemessages -i .venv -i node_modules`"
    )
