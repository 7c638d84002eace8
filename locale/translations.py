"""The hu and pl catalogues' source: `python locale/translations.py` fills the msgstr of
locale/{hu,pl}/LC_MESSAGES/django.po (after `manage.py makemessages`) and compiles the .mo
files with msgfmt. Hungarian terms follow seed 000, Polish ones seed 002."""

import re
import subprocess
from pathlib import Path

HU = {
    "Playing": "Folyamatban",
    "Won": "Megnyerve",
    "Resigned": "Feladva",
    "Continue": "Folytatás",
    "Replay": "Visszajátszás",
    "No games yet.": "Még nincs játszma.",
    "Nobody has played yet.": "Még senki sem játszott.",
    "players": "játékos",
    "Copied!": "Másolva!",
    "Something went wrong. Please try again.": "Hiba történt. Próbáld újra.",
    "The game moved on in another tab; here is its current state.": (
        "A játszma egy másik lapon továbbhaladt; ez a jelenlegi állása."
    ),
    "Resign this game? It ends with its current score.": (
        "Feladod a játszmát? A jelenlegi pontszámmal ér véget."
    ),
    "Your rank on today's board: %(rank)s of %(count)s": (
        "Helyezésed a mai táblán: %(rank)s. / %(count)s"
    ),
    "empty": "üres",
    "cards": "lap",
    "3 cards (Hard)": "3 lap (Nehéz)",
    "1 card (Easy)": "1 lap (Könnyű)",
    "custom deal": "egyéni leosztás",
    "daily": "napi",
    "Picked up: %(card)s. Choose where to put it and press Enter.": (
        "Felvéve: %(card)s. Válaszd ki, hová kerüljön, és nyomj Entert."
    ),
    "Stock": "Húzópakli",
    "Waste": "Dobópakli",
    "Reserve": "Tartalék",
    "Foundation": "Alap",
    "Column %(n)s": "%(n)s. oszlop",
    "You won!": "Nyertél!",
    "Game over": "Vége a játszmának",
    "live": "élő",
    "reconnecting…": "újrakapcsolódás…",
    "Log in": "Belépés",
    "Username": "Felhasználónév",
    "Password": "Jelszó",
    "No account yet?": "Még nincs fiókod?",
    "Sign up": "Regisztráció",
    "Password again": "Jelszó még egyszer",
    "Already have an account?": "Van már fiókod?",
    "Card table": "Kártyaasztal",
    "Main": "Fő",
    "Leaderboard": "Ranglista",
    "Log out": "Kilépés",
    "Language": "Nyelv",
    "Go": "Mehet",
    "Daily leaderboard": "Napi ranglista",
    "Day": "Nap",
    "Draw": "Húzás",
    "This day is over: its deal code is": "Ez a nap véget ért, a leosztás kódja:",
    "Play this deal (unranked practice)": "Játszd le ezt a leosztást (gyakorlás, rangsor nélkül)",
    "Player": "Játékos",
    "Score": "Pontszám",
    "Moves": "Lépések",
    "Time": "Idő",
    "Status": "Állapot",
    "Pages": "Oldalak",
    "Previous": "Előző",
    "Next": "Következő",
    "Today's daily challenge": "A mai napi kihívás",
    "Play today's deal": "A mai leosztás",
    "Log in to play": "Lépj be a játékhoz",
    "Full leaderboard": "Teljes ranglista",
    "Top 10": "Első 10",
    "New game": "Új játék",
    "Rules": "Szabályok",
    "Canfield app (default)": "Canfield app (alapértelmezett)",
    "Cardgames (unlimited undo, auto-finish)": (
        "Cardgames (korlátlan visszavonás, automatikus befejezés)"
    ),
    "Classic (Hoyle)": "Klasszikus (Hoyle)",
    "Deal code (optional: leave empty for a random deal)": (
        "Játszmakód (nem kötelező: üresen hagyva véletlen leosztás)"
    ),
    "or": "vagy",
    "sign up": "regisztrálj",
    "to play.": "a játékhoz.",
    "Your recent games": "Legutóbbi játszmáid",
    "Game": "Játszma",
    "Undo (Z)": "Visszavonás (Z)",
    "Undo": "Visszavonás",
    "Resign": "Feladás",
    "Settings": "Beállítások",
    "Deal code": "Játszmakód",
    "Copy": "Másolás",
    "Keys: arrows choose a pile (up/down a card in a column), Enter picks up and puts down, "
    "T taps, Space or D draws, Z undoes, Esc cancels.": (
        "Billentyűk: a nyilak választanak kupacot (fel/le egy lapot az oszlopban), az Enter "
        "felvesz és letesz, T megérint, Szóköz vagy D húz, Z visszavon, Esc mégse."
    ),
    "Table description": "Az asztal leírása",
    "Double click": "Dupla kattintás",
    "When on, a tapped card that cannot go to a foundation goes to the longest column that "
    "takes it, then to an empty column.": (
        "Ha be van kapcsolva, a megérintett lap, amely nem mehet alapra, a leghosszabb "
        "elfogadó oszlopra kerül, majd egy üres oszlopra."
    ),
    "Done": "Kész",
    "Close": "Bezárás",
    "Games": "Játszmák",
    "Wins": "Győzelmek",
    "Best score": "Legjobb pontszám",
    "Fastest win": "Leggyorsabb győzelem",
    "Fewest moves in a win": "Legkevesebb lépés győzelemben",
    "Daily streak": "Napi sorozat",
    "Recent games": "Legutóbbi játszmák",
    "Date": "Dátum",
    "Deal": "Leosztás",
    "Start": "Eleje",
    "Back": "Vissza",
    "Forward": "Előre",
    "End": "Vége",
    "column %(n)s": "%(n)s. oszlop",
    "hearts foundation": "kőr alap",
    "spades foundation": "pikk alap",
    "diamonds foundation": "káró alap",
    "clubs foundation": "treff alap",
    "stock": "húzópakli",
    "waste": "dobópakli",
    "reserve": "tartalék",
    "draw: %(cards)s": "húzás: %(cards)s",
    "waste back to the stock": "dobópakli vissza a húzópakliba",
    # Accounts at the doors (games/accounts.py, web/views.py)
    "A username is 3–30 characters: ASCII letters, digits, _ and -.": (
        "A felhasználónév 3–30 karakter: ASCII betűk, számjegyek, _ és -."
    ),
    "These characters are not allowed: %(chars)s": "Ezek a karakterek nem megengedettek: %(chars)s",
    "That username is taken.": "Ez a felhasználónév foglalt.",
    "Too many failed logins for this account or from this address. Try again in %(minutes)s min.": (
        "Túl sok sikertelen belépés ehhez a fiókhoz vagy erről a címről. "
        "Próbáld újra %(minutes)s perc múlva."
    ),
    "Too many accounts were created from this address. Try later.": (
        "Erről a címről túl sok fiók készült. Próbáld később."
    ),
    "Try again later": "Próbáld újra később",
    "Home": "Kezdőlap",
}

PL = {
    "Playing": "W trakcie",
    "Won": "Wygrana",
    "Resigned": "Poddana",
    "Continue": "Kontynuuj",
    "Replay": "Powtórka",
    "No games yet.": "Jeszcze brak gier.",
    "Nobody has played yet.": "Nikt jeszcze nie grał.",
    "players": "graczy",
    "Copied!": "Skopiowano!",
    "Something went wrong. Please try again.": "Coś poszło nie tak. Spróbuj ponownie.",
    "The game moved on in another tab; here is its current state.": (
        "Gra potoczyła się dalej w innej karcie; oto jej obecny stan."
    ),
    "Resign this game? It ends with its current score.": (
        "Poddać tę grę? Skończy się z obecnym wynikiem."
    ),
    "Your rank on today's board: %(rank)s of %(count)s": (
        "Twoje miejsce w dzisiejszym rankingu: %(rank)s z %(count)s"
    ),
    "empty": "pusty",
    "cards": "kart",
    "3 cards (Hard)": "3 karty (Trudny)",
    "1 card (Easy)": "1 karta (Łatwy)",
    "custom deal": "własne rozdanie",
    "daily": "dzienne",
    "Picked up: %(card)s. Choose where to put it and press Enter.": (
        "Podniesiono: %(card)s. Wybierz, gdzie ją położyć, i naciśnij Enter."
    ),
    "Stock": "Zapas",
    "Waste": "Odrzuty",
    "Reserve": "Rezerwa",
    "Foundation": "Baza",
    "Column %(n)s": "Tableau %(n)s",
    "You won!": "Wygrana!",
    "Game over": "Koniec gry",
    "live": "na żywo",
    "reconnecting…": "ponowne łączenie…",
    "Log in": "Zaloguj się",
    "Username": "Nazwa użytkownika",
    "Password": "Hasło",
    "No account yet?": "Nie masz konta?",
    "Sign up": "Załóż konto",
    "Password again": "Powtórz hasło",
    "Already have an account?": "Masz już konto?",
    "Card table": "Stół karciany",
    "Main": "Główne",
    "Leaderboard": "Ranking",
    "Log out": "Wyloguj się",
    "Language": "Język",
    "Go": "Dalej",
    "Daily leaderboard": "Ranking dzienny",
    "Day": "Dzień",
    "Draw": "Dobieranie",
    "This day is over: its deal code is": "Ten dzień się skończył, kod rozdania:",
    "Play this deal (unranked practice)": "Zagraj w to rozdanie (trening poza rankingiem)",
    "Player": "Gracz",
    "Score": "Wynik",
    "Moves": "Ruchy",
    "Time": "Czas",
    "Status": "Stan",
    "Pages": "Strony",
    "Previous": "Poprzednia",
    "Next": "Następna",
    "Today's daily challenge": "Dzisiejsze wyzwanie dnia",
    "Play today's deal": "Zagraj w dzisiejsze rozdanie",
    "Log in to play": "Zaloguj się, aby grać",
    "Full leaderboard": "Pełny ranking",
    "Top 10": "Pierwsza 10",
    "New game": "Nowa gra",
    "Rules": "Zasady",
    "Canfield app (default)": "Aplikacja Canfield (domyślne)",
    "Cardgames (unlimited undo, auto-finish)": (
        "Cardgames (cofanie bez limitu, automatyczne dokończenie)"
    ),
    "Classic (Hoyle)": "Klasyczne (Hoyle)",
    "Deal code (optional: leave empty for a random deal)": (
        "Kod rozdania (opcjonalnie: puste pole to losowe rozdanie)"
    ),
    "or": "lub",
    "sign up": "załóż konto",
    "to play.": "aby grać.",
    "Your recent games": "Twoje ostatnie gry",
    "Game": "Gra",
    "Undo (Z)": "Cofnij (Z)",
    "Undo": "Cofnij",
    "Resign": "Poddaj się",
    "Settings": "Opcje",
    "Deal code": "Kod rozdania",
    "Copy": "Kopiuj",
    "Keys: arrows choose a pile (up/down a card in a column), Enter picks up and puts down, "
    "T taps, Space or D draws, Z undoes, Esc cancels.": (
        "Klawisze: strzałki wybierają stos (góra/dół kartę w kolumnie), Enter podnosi i "
        "kładzie, T stuka, Spacja lub D dobiera, Z cofa, Esc anuluje."
    ),
    "Table description": "Opis stołu",
    "Double click": "Podwójne kliknięcie",
    "When on, a tapped card that cannot go to a foundation goes to the longest column that "
    "takes it, then to an empty column.": (
        "Gdy włączone, stuknięta karta, która nie może trafić na bazę, idzie na najdłuższy "
        "stos Tableau, który ją przyjmie, a potem na pusty."
    ),
    "Done": "Gotowe",
    "Close": "Zamknij",
    "Games": "Gry",
    "Wins": "Wygrane",
    "Best score": "Najlepszy wynik",
    "Fastest win": "Najszybsza wygrana",
    "Fewest moves in a win": "Najmniej ruchów w wygranej",
    "Daily streak": "Seria dzienna",
    "Recent games": "Ostatnie gry",
    "Date": "Data",
    "Deal": "Rozdanie",
    "Start": "Początek",
    "Back": "Wstecz",
    "Forward": "Dalej",
    "End": "Koniec",
    "column %(n)s": "kolumna %(n)s",
    "hearts foundation": "baza kier",
    "spades foundation": "baza pik",
    "diamonds foundation": "baza karo",
    "clubs foundation": "baza trefl",
    "stock": "zapas",
    "waste": "odrzuty",
    "reserve": "rezerwa",
    "draw: %(cards)s": "dobranie: %(cards)s",
    "waste back to the stock": "odrzuty z powrotem do zapasu",
    # Accounts at the doors (games/accounts.py, web/views.py)
    "A username is 3–30 characters: ASCII letters, digits, _ and -.": (
        "Nazwa użytkownika ma 3–30 znaków: litery ASCII, cyfry, _ i -."
    ),
    "These characters are not allowed: %(chars)s": "Te znaki są niedozwolone: %(chars)s",
    "That username is taken.": "Ta nazwa użytkownika jest zajęta.",
    "Too many failed logins for this account or from this address. Try again in %(minutes)s min.": (
        "Zbyt wiele nieudanych logowań na to konto lub z tego adresu. "
        "Spróbuj ponownie za %(minutes)s min."
    ),
    "Too many accounts were created from this address. Try later.": (
        "Z tego adresu utworzono zbyt wiele kont. Spróbuj później."
    ),
    "Try again later": "Spróbuj ponownie później",
    "Home": "Strona główna",
}

ENTRY = re.compile(r'(msgid (?:"(?:[^"\\]|\\.)*"\n)+)(msgstr (?:"(?:[^"\\]|\\.)*"\n)+)')


def _text(lines: str) -> str:
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', lines)).replace('\\"', '"')


def fill(path: Path, catalogue: dict[str, str]) -> list[str]:
    source = path.read_text(encoding="utf-8")
    missing = []

    def replace(match: re.Match[str]) -> str:
        msgid = _text(match.group(1))
        if not msgid:
            return match.group(0)
        if msgid not in catalogue:
            missing.append(msgid)
            return match.group(0)
        escaped = catalogue[msgid].replace('"', '\\"')
        return f'{match.group(1)}msgstr "{escaped}"\n'

    # makemessages guesses "fuzzy" translations from similar msgids; every msgstr here is set
    # from the catalogue above, so the guess marks (which gettext would skip) go.
    filled = ENTRY.sub(replace, source).replace("#, fuzzy\n", "").replace("#, fuzzy, ", "#, ")
    filled = re.sub(r"^#\| .*\n", "", filled, flags=re.MULTILINE)
    filled = filled.replace('"Language: \\n"', f'"Language: {path.parts[-3]}\\n"')
    path.write_text(filled, encoding="utf-8")
    return missing


if __name__ == "__main__":
    root = Path(__file__).resolve().parent
    for lang, catalogue in (("hu", HU), ("pl", PL), ("en", {})):
        po = root / lang / "LC_MESSAGES" / "django.po"
        missing = fill(po, catalogue)
        if missing and lang != "en":
            raise SystemExit(f"{lang}: no translation for {missing}")
        subprocess.run(["msgfmt", "--check", "-o", str(po.with_suffix(".mo")), str(po)], check=True)
