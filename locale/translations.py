"""The hu and pl catalogues' source: `python locale/translations.py` fills the msgstr of
locale/{hu,pl}/LC_MESSAGES/django.po and djangojs.po (after `manage.py makemessages` and
`manage.py makemessages -d djangojs -i node_modules -i staticfiles`) and compiles the .mo
files with msgfmt. Hungarian terms follow seed 000, Polish ones seed 002. Counted phrases
(ngettext) take every plural form of the language, in the order of the catalogue's
Plural-Forms (Polish: one, few, many, and the form for fractions)."""

import re
import subprocess
from pathlib import Path

CONTEXT = "\x04"  # between a pgettext context and its msgid in the keys below


def ctx(context: str, msgid: str) -> str:
    """The key of a msgid said in a context (pgettext)."""
    return context + CONTEXT + msgid


HU = {
    "Playing": "Folyamatban",
    "Won": "Megnyerve",
    "Resigned": "Feladva",
    "Continue": "Folytatás",
    "Replay": "Visszajátszás",
    "No games yet.": "Még nincs játszma.",
    "Nobody has played yet.": "Még senki sem játszott.",
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
    ctx("the stock", "empty"): "üres",
    ctx("the waste", "empty"): "üres",
    ctx("the reserve", "empty"): "üres",
    ctx("a foundation", "empty"): "üres",
    ctx("a column", "empty"): "üres",
    "daily %(date)s": "napi kihívás (%(date)s)",
    ctx("the rules page's heading over the controls", "Playing"): "Irányítás",
    "3 cards (Hard)": "3 lap (Nehéz)",
    "1 card (Easy)": "1 lap (Könnyű)",
    "custom deal": "egyéni leosztás",
    "random deal": "véletlen leosztás",
    "not counted": "nem számít",
    "These figures count random and daily games played without hints. Practice games, dealt "
    "from a deal code or a deck the player chose, never count: their cards are known in "
    "advance.": (
        "Ezek a számok a tipp nélkül játszott véletlen és napi játszmákat számolják. A gyakorló "
        "játszmák, amelyeket "
        "a játékos által választott játszmakódból vagy pakliból osztottak, sosem számítanak: "
        "a lapjaik előre ismertek."
    ),
    "Picked up: %(card)s. Choose where to put it and press Enter.": (
        "Felvéve: %(card)s. Válaszd ki, hová kerüljön, és nyomj Entert."
    ),
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
    "This day is over: its deal code is": "Ez a nap véget ért, a játszmakódja:",
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
    "Play today's deal": "Játszd a mai leosztást",
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
    # the table's words, error messages and announcements, the rules pages
    "Restart this deal": "Újrakezdés ugyanezzel a leosztással",
    "Daily challenge": "Napi kihívás",
    "Keys: arrows choose a pile (up/down a card in a column), Enter picks up and puts down, T "
    "taps, Space or D draws, Z undoes, I reads the whole table, Esc cancels.": (
        "Billentyűk: a nyilak paklit választanak (fel/le lapot az oszlopban), az Enter felvesz és "
        "letesz, T megérint, Szóköz vagy D húz, Z visszavon, I felolvassa az egész asztalt, Esc "
        "mégse."
    ),
    "Read the whole table (I)": "Az egész asztal felolvasása (I)",
    "New games": "Új játékok",
    "The classic rules always draw three cards.": (
        "A klasszikus szabályokkal mindig három lapot húzol."
    ),
    "Result to share": "Megosztható eredmény",
    "Share the result": "Eredmény megosztása",
    "How to play": "Játékszabály",
    "Canfield app rules": "Canfield app szabályok",
    "Cardgames rules": "Cardgames szabályok",
    "Classic rules": "Klasszikus szabályok",
    "Rule sets": "Szabályrendszerek",
    "The goal": "A cél",
    "Build all 52 cards onto the four foundations, one suit each, going up from the starting rank: "
    "the rank of the card dealt onto the first foundation. After the king comes the ace.": (
        "Rakd fel mind az 52 lapot a négy alapra, színenként egyre, a kezdő rangtól felfelé: ez az "
        "első alapra osztott lap rangja. A király után az ász jön."
    ),
    "The layout": "Az asztal",
    "Reserve: 13 cards, only the top one can be played.": (
        "Tartalék: 13 lap, csak a legfelső játszható."
    ),
    "Four columns of face-up cards. A card goes onto a card one rank higher of the other colour (a "
    "king goes onto an ace).": (
        "Négy oszlop képpel felfelé. Egy lap az eggyel magasabb rangú, ellenkező színű lapra "
        "tehető (király az ászra)."
    ),
    "When a column empties, the reserve's top card fills it at once. Once the reserve is empty, an "
    "empty column stays empty until you fill it.": (
        "Ha egy oszlop kiürül, a tartalék felső lapja azonnal kitölti. Ha a tartalék elfogyott, az "
        "üres oszlop üres marad, amíg te ki nem töltöd."
    ),
    "Stock: draw three cards at a time onto the waste. Only the waste's top card can be played. An "
    "empty stock takes the waste back, as often as you like.": (
        "Húzópakli: egyszerre három lapot húzol a dobópaklira. Csak a dobópakli felső lapja "
        "játszható. Az üres húzópakli visszaveszi a dobópaklit, ahányszor csak akarod."
    ),
    "Stock: draw one or three cards at a time onto the waste (chosen when the game starts). Only "
    "the waste's top card can be played. An empty stock takes the waste back, as often as you "
    "like.": (
        "Húzópakli: egyszerre egy vagy három lapot húzol a dobópaklira (a játék kezdetén "
        "választod). Csak a dobópakli felső lapja játszható. Az üres húzópakli visszaveszi a "
        "dobópaklit, ahányszor csak akarod."
    ),
    "These rules": "Ezek a szabályok",
    "Only a whole column moves onto another column.": "Oszlopra csak egy egész oszlop tehető át.",
    "Cards never leave a foundation.": "Az alapokról nem vehető le lap.",
    "With the reserve empty, an empty column takes only the waste's top card, and may stay "
    "empty.": (
        "Üres tartaléknál az üres oszlopba csak a dobópakli felső lapja tehető, és üresen is "
        "maradhat."
    ),
    "Undo: the last 100 actions, each undo counted as a move.": (
        "Visszavonás: az utolsó 100 lépés, minden visszavonás lépésnek számít."
    ),
    "Any part of a column that is itself in order moves as a unit.": (
        "Egy oszlop bármely rendezett vége egyben mozgatható."
    ),
    "A foundation's top card may come back onto a column.": (
        "Az alap felső lapja visszatehető egy oszlopra."
    ),
    "With the reserve empty, an empty column takes any card or any ordered run.": (
        "Üres tartaléknál az üres oszlopba bármely lap vagy rendezett sor tehető."
    ),
    "Nothing plays by itself except the reserve filling an empty column.": (
        "Magától semmi sem mozdul, csak a tartalék tölti ki az üres oszlopot."
    ),
    "Undo: as far back as you like, each undo counted as a move.": (
        "Visszavonás: bármeddig vissza, minden visszavonás lépésnek számít."
    ),
    "Once the stock, the waste and the reserve are empty and every card can go up, the game "
    "finishes itself.": (
        "Ha a húzópakli, a dobópakli és a tartalék üres, és minden lap felrakható, a játék magától "
        "befejeződik."
    ),
    "Each card scores 5 points the first time it reaches a foundation: a won game scores 255. "
    "Moves and time break ties on the daily leaderboards.": (
        "Minden lap 5 pontot ér, amikor először kerül alapra: a megnyert játszma 255 pont. A napi "
        "ranglistán egyenlőségnél a lépések száma, majd az idő dönt."
    ),
    "Drag a card, or tap it: a tapped card goes to its foundation if it can, else to the longest "
    "column that takes it. Tap the stock to draw. With a keyboard: arrows choose a pile, Enter "
    "picks up and puts down, T taps, Space draws, Z undoes, I reads the whole table.": (
        "Húzd a lapot, vagy érintsd meg: a megérintett lap az alapjára kerül, ha lehet, különben a "
        "leghosszabb oszlopra, amely befogadja. A húzópakli megérintése húz. Billentyűzettel: a "
        "nyilak paklit választanak, az Enter felvesz és letesz, T megérint, Szóköz húz, Z "
        "visszavon, I felolvassa az egész asztalt."
    ),
    "Canfield solitaire: daily challenges and a live leaderboard.": (
        "Canfield pasziánsz: napi kihívások és élő ranglista."
    ),
    "a foundation builds up in suit from its starting rank": (
        "az alapra csak azonos színű, eggyel nagyobb lap kerülhet"
    ),
    "a column builds down in alternating colours": (
        "oszlopra csak eggyel kisebb, ellenkező színű lap kerülhet"
    ),
    "%(card)s cannot go on %(onto)s: %(why)s.": (
        "%(card)s nem tehető erre a lapra: %(onto)s; %(why)s."
    ),
    "%(card)s has nowhere to go.": "%(card)s sehová sem tehető.",
    "This game is over.": "Ez a játszma véget ért.",
    "Too many requests: wait a moment and try again.": (
        "Túl sok kérés: várj egy kicsit, és próbáld újra."
    ),
    "The server cannot be reached. Check the connection and try again.": (
        "A szerver nem érhető el. Ellenőrizd a kapcsolatot, és próbáld újra."
    ),
    "%(cards)s %(destination)s": "%(cards)s %(destination)s",
    "to column %(n)s": "a(z) %(n)s. oszlopra",
    "to the hearts foundation": "a kőr alapra",
    "to the spades foundation": "a pikk alapra",
    "to the diamonds foundation": "a káró alapra",
    "to the clubs foundation": "a treff alapra",
    "%(pile)s filled with %(card)s": "%(pile)s: %(card)s a tartalékból",
    "drew %(cards)s": "húzás: %(cards)s",
    "last action undone": "az utolsó lépés visszavonva",
    "game resigned": "játszma feladva",
    "top: %(card)s": "felül: %(card)s",
    "Rank %(rank)s of %(count)s": "Helyezés: %(rank)s. / %(count)s",
    "No challenge that day.": "Azon a napon nem volt kihívás.",
    # API error messages (games/errors.py): cards as "<suit> <rank>", piles as in the table.
    "The %(card)s cannot go on the %(onto)s: they are the same colour.": (
        "A %(card)s nem kerülhet erre a lapra: %(onto)s – azonos a színük."
    ),
    "The %(card)s cannot go on the %(onto)s: only a card one rank lower goes there.": (
        "A %(card)s nem kerülhet erre a lapra: %(onto)s – csak egy ranggal kisebb lap kerülhet rá."
    ),
    "The %(card)s does not follow the %(onto)s: only a run in order moves together.": (
        "A %(card)s nem követi ezt a lapot: %(onto)s – csak szabályos sor mozoghat együtt."
    ),
    "The %(card)s cannot go on the %(foundation)s: each foundation holds one suit.": (
        "A %(card)s nem kerülhet ide: %(foundation)s – minden alapon csak egy szín lehet."
    ),
    "The %(foundation)s is complete.": "%(foundation)s már teljes.",
    "The %(card)s cannot start the %(foundation)s: it starts with the %(next)s.": (
        "A %(card)s nem kezdheti ezt: %(foundation)s – ez ezzel kezdődik: %(next)s."
    ),
    "The %(card)s cannot go on the %(onto)s: the next card there is the %(next)s.": (
        "A %(card)s nem kerülhet erre a lapra: %(onto)s – oda ez jön: %(next)s."
    ),
    "The %(pile)s is empty.": "%(pile)s üres.",
    "Only the top card of the %(pile)s can move.": "Csak a felső lap mozdítható innen: %(pile)s.",
    "Cards leave the stock only by drawing.": "A húzópakliból csak húzással lehet lapot venni.",
    "A card cannot move onto its own pile.": "Lap nem tehető a saját helyére.",
    "Nothing can be put on the %(pile)s.": "Ide nem tehető lap: %(pile)s.",
    "In the classic rules cards never leave a foundation.": (
        "A klasszikus szabályokban lap nem kerülhet le az alapról."
    ),
    "A foundation's top card can only go back to a column.": (
        "Az alap felső lapja csak oszlopba kerülhet vissza."
    ),
    "Only one card at a time goes to a foundation.": "Az alapra egyszerre csak egy lap kerülhet.",
    "In the classic rules only a whole column moves.": (
        "A klasszikus szabályokban csak egész oszlop mozoghat."
    ),
    "An empty column is filled from the reserve.": "Az üres oszlop a tartalékból telik fel.",
    "In the classic rules an empty column takes only the top card of the waste.": (
        "A klasszikus szabályokban üres oszlopba csak a dobópakli felső lapja kerülhet."
    ),
    "Tap the waste, the reserve or a card in a column, not the stock.": (
        "A dobópaklira, a tartalékra vagy egy oszlop lapjára koppints, ne a húzópaklira."
    ),
    "The stock is empty: turn the waste over to draw again.": (
        "A húzópakli üres: fordítsd vissza a dobópaklit."
    ),
    "The waste can be turned over only when the stock is empty.": (
        "A dobópakli csak üres húzópaklinál fordítható vissza."
    ),
    "The waste is empty: there is nothing to turn over.": (
        "A dobópakli üres: nincs mit visszafordítani."
    ),
    "There is nothing to undo.": "Nincs mit visszavonni.",
    "A card on a foundation cannot be tapped.": "Az alapon lévő lapra nem lehet koppintani.",
    "The %(card)s has nowhere to go.": "A %(card)s nem tehető sehova.",
    "Invalid value for %(field)s; allowed: %(allowed)s.": (
        "Érvénytelen érték itt: %(field)s; lehetséges: %(allowed)s."
    ),
    "Unknown field(s): %(fields)s.": "Ismeretlen mező(k): %(fields)s.",
    "The body must be a JSON object.": "A kérés törzsének JSON-objektumnak kell lennie.",
    "That is not a valid deal code (like CF1-D3-AAAAACL).": (
        "Ez nem érvényes játszmakód (például CF1-D3-AAAAACL)."
    ),
    "A deal code uses only the letters A-Z and the digits 2-7, not %(characters)s.": (
        "A játszmakód csak az A-Z betűket és a 2-7 számjegyeket használja, ezeket nem: "
        "%(characters)s."
    ),
    "A %(format)s code has %(length)s characters after its draw mode, not %(got)s.": (
        "A %(format)s kódban a húzási mód után %(length)s karakter áll, nem %(got)s."
    ),
    "A CF2 code starts with a letter A-H after its draw mode (its number is below 2^128).": (
        "A CF2 kód a húzási mód után A-H betűvel kezdődik (a száma 2^128 alatti)."
    ),
    "The deck must list the 52 cards, each once.": (
        "A pakliban mind az 52 lapnak pontosan egyszer kell szerepelnie."
    ),
    "Entry %(index)s of the deck is not a card.": "A pakli %(index)s. eleme nem lap.",
    "The deck repeats: %(cards)s.": "Ezek többször szerepelnek a pakliban: %(cards)s.",
    "The service is temporarily unavailable: retry later.": (
        "A szolgáltatás átmenetileg nem érhető el: próbáld újra később."
    ),
    "The request holds a value that cannot be stored.": (
        "A kérés olyan értéket tartalmaz, amely nem tárolható."
    ),
    "Not found.": "Nem található.",
    "You may not do this.": "Ezt nem teheted meg.",
    "The request body is too large.": "A kérés törzse túl nagy.",
    "There is no such API path.": "Nincs ilyen API-útvonal.",
    "%(name)s must be a whole number from 1 to %(highest)s.": (
        "%(name)s: 1 és %(highest)s közötti egész szám kell."
    ),
    "Page %(page)s is past the last page (%(pages)s).": (
        "A(z) %(page)s. oldal az utolsó (%(pages)s.) után van."
    ),
    "status must be one of: %s.": "status értéke ezek egyike lehet: %s.",
    "daily must be true or false.": "daily értéke true vagy false lehet.",
    "%s is not a date: expected YYYY-MM-DD.": "%s nem dátum: ÉÉÉÉ-HH-NN alakban kell.",
    "draw must be 3 or 1.": "draw értéke 3 vagy 1 lehet.",
    "Wrong username or password.": "Hibás felhasználónév vagy jelszó.",
    "Only the game's owner may play it.": "Csak a játszma gazdája játszhat vele.",
    "The game has moved on: moves is %(moves)s, not %(expect)s.": (
        "A játszma továbbhaladt: a lépésszám %(moves)s, nem %(expect)s."
    ),
    "The game has moved on: another action was applied first.": (
        "A játszma továbbhaladt: egy másik lépés előbb érkezett."
    ),
    "The game is busy with other actions: retry.": (
        "A játszmán éppen más lépések futnak: próbáld újra."
    ),
    "No such game.": "Nincs ilyen játszma.",
    "Look": "Megjelenés",
    "Table": "Asztal",
    "Dark green felt": "Sötétzöld posztó",
    "Light felt": "Világos posztó",
    "Card back": "Lap hátoldala",
    "Blue stripes": "Kék csíkos",
    "Red dots": "Piros pöttyös",
    "draw": "húzás",
    "Hint": "Tipp",
    "Hint: %(action)s": "Tipp: %(action)s",
    "No winning line from here.": "Innen nincs nyerő folytatás.",
    "No hint: the solver could not decide in time.": "Nincs tipp: a megoldó nem döntött időben.",
    "Only the game's owner may ask for a hint.": "Csak a játszma gazdája kérhet tippet.",
    "No hints in a ranked daily game while its day lasts.": (
        "Rangsorolt napi játszmában nincs tipp, amíg tart a nap."
    ),
    # Matches and ratings (R32, R33): the server's messages.
    "No hints in a match game.": "Mérkőzés játszmájában nincs tipp.",
    "The match is over: its 24 hours are up.": "A mérkőzésnek vége: letelt a 24 órája.",
    "No such match.": "Nincs ilyen mérkőzés.",
    "No such player.": "Nincs ilyen játékos.",
    "%(name)s must be one of: %(choices)s.": "%(name)s értéke ezek egyike lehet: %(choices)s.",
    "size must be one of: %(choices)s.": "size értéke ezek egyike lehet: %(choices)s.",
    "players must be one of: %s.": "players értéke ezek egyike lehet: %s.",
    "Matches are not set up on this server.": "Ezen a szerveren nincsenek beállítva mérkőzések.",
    # Bots (R34): the account, the boards' tabs, the player page's mark
    "An account can declare itself a bot only before its first ranked game.": (
        "Egy fiók csak az első rangsorolt játszmája előtt nyilváníthatja magát botnak."
    ),
    "players must be people or bots.": "A players értéke people vagy bots lehet.",
    "Whose board": "Kinek a táblája",
    "People": "Emberek",
    "Bots": "Botok",
    "A bot: it ranks among bots only.": "Bot: csak a botok között rangsorolják.",
    "BOT": "BOT",
    "The day is over: this game ended at midnight.": (
        "Véget ért a nap: ez a játszma éjfélkor befejeződött."
    ),
    "Day over": "Véget ért a nap",
    "Held for a fair-play review: off the public boards until staff have looked at it.": (
        "Sportszerűségi ellenőrzésre visszatartva: amíg a személyzet meg nem nézi, nem "
        "látszik a nyilvános táblákon."
    ),
    "The server is busy: retry in %(seconds)s s.": (
        "A szerver foglalt: próbáld újra %(seconds)s mp múlva."
    ),
    # ---- issue 22: guests, Play now, the player page, leaving a game, first-game tips ----
    "Sign up first: a guest cannot declare itself a bot.": (
        "Előbb regisztrálj: vendégként nem jelentheted be magad botnak."
    ),
    "This account has signed up already.": "Ez a fiók már regisztrált.",
    "Sign up to play the daily challenge: your games stay yours.": (
        "A napi kihíváshoz regisztrálj: a játszmáid megmaradnak."
    ),
    "Sign up to play a match: your games stay yours.": (
        "A meccshez regisztrálj: a játszmáid megmaradnak."
    ),
    "Your games so far, and the one you are playing, stay yours: they move to the account you "
    "create.": (
        "Az eddigi játszmáid, és az is, amelyet most játszol, megmaradnak: átkerülnek az új "
        "fiókodba."
    ),
    "Sign up: your games stay yours": "Regisztráció: a játszmáid megmaradnak",
    "Play now": "Játssz most",
    "Canfield solitaire in your browser: a random deal at once, no account needed.": (
        "Canfield pasziánsz a böngésződben: azonnal kapsz egy véletlen leosztást, fiók nélkül."
    ),
    "Sign up to play": "Regisztrálj a játékhoz",
    "Play now deals a random game at once. To choose the deal and the rules, and to keep your "
    "games:": (
        "A „Játssz most” azonnal oszt egy véletlen játszmát. Ha a leosztást és a szabályokat is "
        "választanád, és megtartanád a játszmáidat:"
    ),
    "Win rate": "Győzelmi arány",
    "By draw mode": "Húzásmód szerint",
    "These figures count random and daily games that are over, played without hints and with at "
    "least one move. Games left unfinished never count, nor do practice games, dealt from a deal "
    "code or a deck the player chose: their cards are known in advance.": (
        "Ezek a számok a véget ért, tipp nélkül és legalább egy lépéssel játszott véletlen és napi "
        "játszmákat számolják. A befejezetlenül otthagyott játszmák sosem számítanak, és a "
        "gyakorló játszmák sem, amelyeket a játékos által választott leosztáskódból vagy "
        "pakliból osztottak: a lapjaik előre ismertek."
    ),
    "Daily challenges": "Napi kihívások",
    "The last 30 days": "Az utolsó 30 nap",
    "today": "ma",
    "3 cards": "3 lap",
    "1 card": "1 lap",
    "won": "megnyerve",
    "playing": "folyamatban",
    "In progress": "Folyamatban",
    "No daily challenge played yet.": "Még nincs lejátszott napi kihívás.",
    "Left unfinished": "Befejezetlenül otthagyva",
    "Pages of games": "A játszmák oldalai",
    "Newer": "Újabbak",
    "Page %(page)s of %(pages)s": "%(page)s. oldal / %(pages)s",
    "Older": "Régebbiek",
    "Too many guests were created from this address. Try later.": (
        "Erről a címről túl sok vendég jött létre. Próbáld később."
    ),
    "Leave this game?": "Kilépsz ebből a játszmából?",
    "Keep playing": "Játszom tovább",
    "Leave and start a new game": "Kilépek, és új játszmát kezdek",
    "Your daily game stays open until midnight: you can come back to it from the home page until "
    "then.": ("A napi játszmád éjfélig nyitva marad: addig a kezdőlapról visszatérhetsz hozzá."),
    "It stays in your recent games, so you can come back to it. A game left alone for 7 days ends "
    "by itself and does not count in your statistics.": (
        "Megmarad a legutóbbi játszmáid között, így visszatérhetsz hozzá. Az a játszma, amelyhez "
        "7 napig nem nyúlsz, magától véget ér, és nem számít bele a statisztikádba."
    ),
    "Four tips for your first game": "Négy tipp az első játszmádhoz",
    "Build the four foundations up by suit, starting from the rank of the first foundation's "
    "card. After the king comes the ace.": (
        "A négy alapot színenként, felfelé építsd, az első alap lapjának rangjától kezdve. A "
        "király után az ász jön."
    ),
    "In the four columns, put a card on one a rank higher of the other colour. When a column "
    "empties, the reserve's top card fills it.": (
        "A négy oszlopban egy lapot az eggyel magasabb rangú, ellenkező színű lapra tehetsz. Ha "
        "egy oszlop kiürül, a tartalék felső lapja kitölti."
    ),
    "Click or tap the stock to draw. Drag a card where it goes, or tap it to send it where it "
    "fits.": (
        "Húzáshoz kattints vagy koppints a húzópaklira. Húzd a lapot a helyére, vagy koppints "
        "rá, és oda kerül, ahová illik."
    ),
    "Stuck? Undo, ask for a hint, or read the rules:": (
        "Elakadtál? Vonj vissza egy lépést, kérj tippet, vagy olvasd el a szabályokat:"
    ),
    "Got it": "Értem",
    # issue 24: keys, OAuth, the account, API messages
    "new_password must be a non-empty string": "A new_password nem lehet üres szöveg.",
    "password must be a non-empty string": "A password nem lehet üres szöveg.",
    "Wrong password.": "Hibás jelszó.",
    "%(field)s must be a non-empty string.": "%(field)s mező: nem lehet üres szöveg.",
    "%(field)s must be at most %(max)s characters, without NUL.": (
        "%(field)s mező: legfeljebb %(max)s karakter lehet, NUL nélkül."
    ),
    "Too many accounts were created from this address.": (
        "Erről a címről túl sok fiókot hoztak létre."
    ),
    "ruleset must be one of: %(values)s.": "A ruleset értéke ezek egyike lehet: %(values)s.",
    "draw must be 1 or 3.": "A draw értéke 1 vagy 3 lehet.",
    "daily can only be true (leave it out for a game that is not the daily one).": (
        "A daily értéke csak true lehet (nem napi játszmához hagyd el)."
    ),
    "A daily game is today's deal with the app rules: send only draw.": (
        "A napi játszma a mai leosztás az app szabályaival: csak a draw mezőt küldd."
    ),
    "Send a code or a deck, not both.": "Leosztáskódot vagy paklit küldj, ne mindkettőt.",
    "draw %(draw)s contradicts the code's draw %(code_draw)s.": (
        "A draw %(draw)s ellentmond a kód húzásmódjának (%(code_draw)s)."
    ),
    "deck must be a list of 52 card names.": "A deck 52 kártyanév listája kell legyen.",
    "expect must be a whole number of moves (0 or more).": (
        "Az expect a lépések száma kell legyen (0 vagy több egész szám)."
    ),
    "lang must be one of: %(values)s.": "A lang értéke ezek egyike lehet: %(values)s.",
    "Invalid token header: give the key after the word, without spaces.": (
        "Hibás hitelesítő fejléc: a kulcsot a szó után add meg, szóközök nélkül."
    ),
    "Invalid token header: the key has characters no key has.": (
        "Hibás hitelesítő fejléc: a kulcsban olyan karakterek vannak, amilyenek egyetlen "
        "kulcsban sincsenek."
    ),
    "Invalid token.": "Érvénytelen kulcs.",
    "This key has expired.": "Ez a kulcs lejárt.",
    "This account is closed.": "Ez a fiók megszűnt.",
    "Too many requests.": "Túl sok kérés.",
    "The body is nested too deeply.": "A kérés törzse túl mélyen egymásba ágyazott.",
    "The body is not valid JSON.": "A kérés törzse nem érvényes JSON.",
    "name must be a non-empty string of at most 100 characters.": (
        "A name legfeljebb 100 karakteres, nem üres szöveg lehet."
    ),
    "scopes must be a non-empty list of: %(scopes)s.": (
        "A scopes ezek nem üres listája lehet: %(scopes)s."
    ),
    "A key cannot make a key with scopes it lacks: %(scopes)s.": (
        "Egy kulcs nem hozhat létre olyan jogosultságú kulcsot, amellyel maga nem rendelkezik: "
        "%(scopes)s."
    ),
    "days must be a whole number from 1 to %(max)s.": (
        "A days 1 és %(max)s közötti egész szám lehet."
    ),
    "An account holds at most %(max)s keys: revoke one first.": (
        "Egy fióknak legfeljebb %(max)s kulcsa lehet: előbb vonj vissza egyet."
    ),
    "No such key.": "Nincs ilyen kulcs.",
    "The code_challenge_method must be S256.": "A code_challenge_method értéke csak S256 lehet.",
    "see your account, your games and your keys": (
        "láthatja a fiókodat, a játszmáidat és a kulcsaidat"
    ),
    "change your account and its keys": "módosíthatja a fiókodat és a kulcsait",
    "deal games and play them in your name": "játszmákat oszthat és játszhat a nevedben",
    "read games, boards and players as anyone may": (
        "olvashatja a játszmákat, ranglistákat és játékosokat, ahogy bárki"
    ),
    "This key lacks the scope %(scope)s needed here.": (
        "Ennek a kulcsnak nincs meg az itt szükséges %(scope)s jogosultsága."
    ),
    "There is no %(draw)s-card daily challenge on %(date)s.": (
        "%(date)s napon nincs %(draw)s lapos napi kihívás."
    ),
    "There is no daily challenge on %(date)s yet.": "%(date)s napra még nincs napi kihívás.",
    "There is no daily challenge on %(date)s.": "%(date)s napon nincs napi kihívás.",
    "Name": "Név",
    "What it may do": "Mit tehet",
    "Expires after (days; empty: never)": "Lejár ennyi nap múlva (üresen: soha)",
    "I understand: my account is closed for good and cannot come back.": (
        "Értem: a fiókom végleg megszűnik, és nem állítható vissza."
    ),
    "Account": "Fiók",
    "API keys": "API-kulcsok",
    "Change password": "Jelszócsere",
    "Download my games": "Játszmáim letöltése",
    "Delete account": "Fiók törlése",
    "Your account is deleted": "A fiókod törölve",
    "You can no longer log in, and your keys no longer work. Your games stay on the boards "
    "under a name that says nothing about you.": (
        "Többé nem tudsz belépni, és a kulcsaid sem működnek. A játszmáid a ranglistákon "
        "maradnak, olyan név alatt, amely semmit sem árul el rólad."
    ),
    "Deleting your account closes it for good: you can no longer log in, your API keys and "
    "app permissions stop working, and your name on boards becomes “deleted-” and a number. "
    "Your games stay, so that everyone's ranks stay as they were. Download your games first "
    "if you want to keep them.": (
        "A fiók törlése végleges: többé nem tudsz belépni, az API-kulcsaid és az "
        "alkalmazásoknak adott engedélyeid megszűnnek, a neved a ranglistákon „deleted-” és "
        "egy szám lesz. A játszmáid megmaradnak, így senki helyezése nem változik. Ha meg "
        "akarod őrizni őket, előbb töltsd le a játszmáidat."
    ),
    "Delete my account": "Fiókom törlése",
    "A key lets a program (a bot, an app) use the API in your name, with only the permissions "
    "you give it. Keep it secret.": (
        "Egy kulccsal egy program (bot, alkalmazás) a nevedben használhatja az API-t, csak a "
        "neki adott jogosultságokkal. Tartsd titokban."
    ),
    "Your new key “%(name)s”": "Az új kulcsod: „%(name)s”",
    "Copy it now: it is shown this once, the server keeps only a fingerprint of it.": (
        "Másold ki most: csak most látható, a szerver csak az ujjlenyomatát őrzi meg."
    ),
    "Starts with": "Eleje",
    "Permissions": "Jogosultságok",
    "Created": "Létrehozva",
    "Expires": "Lejár",
    "Last used": "Utoljára használva",
    "Revoke": "Visszavonás",
    "never": "soha",
    "No keys yet.": "Még nincs kulcs.",
    "Make a key": "Új kulcs",
    "Make the key": "Kulcs létrehozása",
    "Your password is changed. You stay signed in here; your other sessions have ended. Your "
    "API keys keep working.": (
        "A jelszavad megváltozott. Itt bejelentkezve maradsz, a többi munkameneted véget ért. "
        "Az API-kulcsaid továbbra is működnek."
    ),
    "Current password": "Jelenlegi jelszó",
    "New password": "Új jelszó",
    "New password again": "Új jelszó még egyszer",
    "Allow an app?": "Engedélyezed az alkalmazást?",
    "Allow %(app)s to use your account?": (
        "Engedélyezed a fiókod használatát ennek az alkalmazásnak: %(app)s?"
    ),
    "Signed in as %(user)s. The app will be able to:": (
        "Bejelentkezve: %(user)s. Az alkalmazás ezeket teheti:"
    ),
    "It never learns your password. You can take the permission back on the API keys page.": (
        "A jelszavadat sosem tudja meg. Az engedélyt az API-kulcsok oldalán vonhatod vissza."
    ),
    "Allow": "Engedélyezem",
    "Deny": "Elutasítom",
    "This app's request cannot be served": "Az alkalmazás kérése nem teljesíthető",
    # Issue 22: the table (phones, the end of a game, the feel).
    "Finish": "Kirakás",
    "Menu": "Menü",
    "No more moves": "Nincs több lépés",
    "End game": "Játszma befejezése",
    "End this game? It ends with its current score.": (
        "Befejezed a játszmát? A jelenlegi pontszámmal ér véget."
    ),
    "game ended": "a játszma véget ért",
    "%(home)s of 52 cards home": "52 lapból %(home)s az alapokon",
    "Ended": "Befejezve",
    "next: %(card)s": "jöhet: %(card)s",
    "complete": "kész",
    "Sound effects": "Hanghatások",
    "Blue felt": "Kék posztó",
    "Burgundy felt": "Bordó posztó",
    "Green checks": "Zöld kockás",
    "Black and gold": "Fekete-arany",
    "Card size": "Lapméret",
    "Medium": "Közepes",
    "Small": "Kicsi",
    "Large": "Nagy",
    "Restart this deal? This game ends here and the same cards are dealt again as practice.": (
        "Újrakezded ezt a leosztást? Ez a játszma itt véget ér, és ugyanezeket a lapokat "
        "gyakorlásként újra megkapod."
    ),
    # Issue 24 (schema fidelity, a player's games)
    "These fields cannot be null: %s.": "Ezek a mezők nem lehetnek null értékűek: %s.",
    "daily must be true; leave it out for any other game.": (
        "daily értéke csak true lehet; más játszmánál hagyd el."
    ),
}

PL = {
    "Playing": "W trakcie",
    "Won": "Wygrana",
    "Resigned": "Poddana",
    "Continue": "Kontynuuj",
    "Replay": "Powtórka",
    "No games yet.": "Jeszcze brak gier.",
    "Nobody has played yet.": "Nikt jeszcze nie grał.",
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
    ctx("the stock", "empty"): "pusty",
    ctx("the waste", "empty"): "puste",
    ctx("the reserve", "empty"): "pusta",
    ctx("a foundation", "empty"): "pusta",
    ctx("a column", "empty"): "pusta",
    "daily %(date)s": "wyzwanie dnia %(date)s",
    ctx("the rules page's heading over the controls", "Playing"): "Sterowanie",
    "3 cards (Hard)": "3 karty (Trudny)",
    "1 card (Easy)": "1 karta (Łatwy)",
    "custom deal": "własne rozdanie",
    "random deal": "losowe rozdanie",
    "not counted": "nie liczy się",
    "These figures count random and daily games played without hints. Practice games, dealt "
    "from a deal code or a deck the player chose, never count: their cards are known in "
    "advance.": (
        "Te statystyki liczą gry losowe i dzienne rozegrane bez podpowiedzi. Gry treningowe, "
        "rozdane z kodu rozdania lub "
        "talii wybranej przez gracza, nigdy się nie liczą: ich karty są znane z góry."
    ),
    "Picked up: %(card)s. Choose where to put it and press Enter.": (
        "Podniesiono: %(card)s. Wybierz, gdzie ją położyć, i naciśnij Enter."
    ),
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
    "Table description": "Opis stołu",
    "Double click": "Podwójne kliknięcie",
    "When on, a tapped card that cannot go to a foundation goes to the longest column that "
    "takes it, then to an empty column.": (
        "Gdy włączone, stuknięta karta, która nie może trafić na bazę, idzie na najdłuższy "
        "kolumnę, która ją przyjmie, a potem na pustą."
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
    # the table's words, error messages and announcements, the rules pages
    "Restart this deal": "Zagraj to rozdanie od nowa",
    "Daily challenge": "Wyzwanie dnia",
    "Keys: arrows choose a pile (up/down a card in a column), Enter picks up and puts down, T "
    "taps, Space or D draws, Z undoes, I reads the whole table, Esc cancels.": (
        "Klawisze: strzałki wybierają stos (góra/dół kartę w kolumnie), Enter podnosi i kładzie, T "
        "stuka, Spacja lub D dobiera, Z cofa, I odczytuje cały stół, Esc anuluje."
    ),
    "Read the whole table (I)": "Odczytaj cały stół (I)",
    "New games": "Nowe gry",
    "The classic rules always draw three cards.": (
        "W zasadach klasycznych zawsze dobiera się trzy karty."
    ),
    "Result to share": "Wynik do udostępnienia",
    "Share the result": "Udostępnij wynik",
    "How to play": "Jak grać",
    "Canfield app rules": "Zasady aplikacji Canfield",
    "Cardgames rules": "Zasady Cardgames",
    "Classic rules": "Zasady klasyczne",
    "Rule sets": "Zestawy zasad",
    "The goal": "Cel gry",
    "Build all 52 cards onto the four foundations, one suit each, going up from the starting rank: "
    "the rank of the card dealt onto the first foundation. After the king comes the ace.": (
        "Ułóż wszystkie 52 karty na czterech bazach, każda w jednym kolorze, rosnąco od rangi "
        "początkowej: rangi karty rozdanej na pierwszą bazę. Po królu idzie as."
    ),
    "The layout": "Układ",
    "Reserve: 13 cards, only the top one can be played.": (
        "Rezerwa: 13 kart, zagrać można tylko wierzchnią."
    ),
    "Four columns of face-up cards. A card goes onto a card one rank higher of the other colour (a "
    "king goes onto an ace).": (
        "Cztery kolumny odkrytych kart. Kartę kładzie się na kartę o jedną rangę wyższą w "
        "przeciwnym kolorze (króla na asa)."
    ),
    "When a column empties, the reserve's top card fills it at once. Once the reserve is empty, an "
    "empty column stays empty until you fill it.": (
        "Gdy kolumna się opróżni, od razu wypełnia ją wierzchnia karta rezerwy. Gdy rezerwa się "
        "skończy, pusta kolumna czeka, aż ją wypełnisz."
    ),
    "Stock: draw three cards at a time onto the waste. Only the waste's top card can be played. An "
    "empty stock takes the waste back, as often as you like.": (
        "Zapas: dobierasz po trzy karty na odrzuty. Zagrać można tylko wierzchnią kartę odrzutów. "
        "Pusty zapas przyjmuje odrzuty z powrotem, ile razy chcesz."
    ),
    "Stock: draw one or three cards at a time onto the waste (chosen when the game starts). Only "
    "the waste's top card can be played. An empty stock takes the waste back, as often as you "
    "like.": (
        "Zapas: dobierasz po jednej lub po trzy karty na odrzuty (wybór na początku gry). Zagrać "
        "można tylko wierzchnią kartę odrzutów. Pusty zapas przyjmuje odrzuty z powrotem, ile razy "
        "chcesz."
    ),
    "These rules": "Te zasady",
    "Only a whole column moves onto another column.": (
        "Na inną kolumnę przenosi się tylko całą kolumnę."
    ),
    "Cards never leave a foundation.": "Karty nigdy nie schodzą z bazy.",
    "With the reserve empty, an empty column takes only the waste's top card, and may stay "
    "empty.": (
        "Gdy rezerwa jest pusta, pusta kolumna przyjmuje tylko wierzchnią kartę odrzutów i może "
        "zostać pusta."
    ),
    "Undo: the last 100 actions, each undo counted as a move.": (
        "Cofanie: ostatnie 100 akcji, każde cofnięcie liczy się jako ruch."
    ),
    "Any part of a column that is itself in order moves as a unit.": (
        "Każdy uporządkowany koniec kolumny przenosi się w całości."
    ),
    "A foundation's top card may come back onto a column.": (
        "Wierzchnia karta bazy może wrócić na kolumnę."
    ),
    "With the reserve empty, an empty column takes any card or any ordered run.": (
        "Gdy rezerwa jest pusta, pusta kolumna przyjmuje dowolną kartę lub uporządkowany ciąg."
    ),
    "Nothing plays by itself except the reserve filling an empty column.": (
        "Nic nie dzieje się samo, poza rezerwą wypełniającą pustą kolumnę."
    ),
    "Undo: as far back as you like, each undo counted as a move.": (
        "Cofanie: bez limitu, każde cofnięcie liczy się jako ruch."
    ),
    "Once the stock, the waste and the reserve are empty and every card can go up, the game "
    "finishes itself.": (
        "Gdy zapas, odrzuty i rezerwa są puste, a każdą kartę można położyć na bazę, gra kończy "
        "się sama."
    ),
    "Each card scores 5 points the first time it reaches a foundation: a won game scores 255. "
    "Moves and time break ties on the daily leaderboards.": (
        "Każda karta daje 5 punktów, gdy pierwszy raz trafi na bazę: wygrana gra to 255 punktów. W "
        "rankingach dnia przy remisie decydują ruchy, a potem czas."
    ),
    "Drag a card, or tap it: a tapped card goes to its foundation if it can, else to the longest "
    "column that takes it. Tap the stock to draw. With a keyboard: arrows choose a pile, Enter "
    "picks up and puts down, T taps, Space draws, Z undoes, I reads the whole table.": (
        "Przeciągnij kartę albo ją stuknij: stuknięta karta idzie na swoją bazę, jeśli może, a "
        "jeśli nie, na najdłuższą kolumnę, która ją przyjmie. Stuknij zapas, aby dobrać. Z "
        "klawiatury: strzałki wybierają stos, Enter podnosi i kładzie, T stuka, Spacja dobiera, Z "
        "cofa, I odczytuje cały stół."
    ),
    "Canfield solitaire: daily challenges and a live leaderboard.": (
        "Pasjans Canfield: wyzwania dnia i ranking na żywo."
    ),
    "a foundation builds up in suit from its starting rank": (
        "na bazę idzie tylko następna karta w tym samym kolorze"
    ),
    "a column builds down in alternating colours": (
        "na kolumnę idzie tylko karta o jedną rangę niższa w przeciwnym kolorze"
    ),
    "%(card)s cannot go on %(onto)s: %(why)s.": (
        "%(card)s nie pasuje na tę kartę: %(onto)s; %(why)s."
    ),
    "%(card)s has nowhere to go.": "%(card)s nie ma dokąd iść.",
    "This game is over.": "Ta gra jest zakończona.",
    "Too many requests: wait a moment and try again.": (
        "Zbyt wiele żądań: odczekaj chwilę i spróbuj ponownie."
    ),
    "The server cannot be reached. Check the connection and try again.": (
        "Brak połączenia z serwerem. Sprawdź połączenie i spróbuj ponownie."
    ),
    "%(cards)s %(destination)s": "%(cards)s %(destination)s",
    "to column %(n)s": "na kolumnę %(n)s",
    "to the hearts foundation": "na bazę kier",
    "to the spades foundation": "na bazę pik",
    "to the diamonds foundation": "na bazę karo",
    "to the clubs foundation": "na bazę trefl",
    "%(pile)s filled with %(card)s": "%(pile)s: %(card)s z rezerwy",
    "drew %(cards)s": "dobrano: %(cards)s",
    "last action undone": "cofnięto ostatni ruch",
    "game resigned": "gra poddana",
    "top: %(card)s": "na wierzchu: %(card)s",
    "Rank %(rank)s of %(count)s": "Miejsce %(rank)s z %(count)s",
    "No challenge that day.": "Tego dnia nie było wyzwania.",
    # API error messages (games/errors.py): cards as "<rank> <suit>" in the nominative; a
    # card the sentence needs in another case is named after a colon.
    "The %(card)s cannot go on the %(onto)s: they are the same colour.": (
        "%(card)s nie może leżeć na tej karcie: %(onto)s – mają ten sam kolor."
    ),
    "The %(card)s cannot go on the %(onto)s: only a card one rank lower goes there.": (
        "%(card)s nie może leżeć na tej karcie: %(onto)s – kładzie się tylko kartę o jeden niższą."
    ),
    "The %(card)s does not follow the %(onto)s: only a run in order moves together.": (
        "%(card)s nie pasuje pod tę kartę: %(onto)s – razem przenosi się tylko poprawny ciąg."
    ),
    "The %(card)s cannot go on the %(foundation)s: each foundation holds one suit.": (
        "%(card)s nie może trafić tutaj: %(foundation)s – każda baza zbiera jeden kolor."
    ),
    "The %(foundation)s is complete.": "%(foundation)s jest już pełna.",
    "The %(card)s cannot start the %(foundation)s: it starts with the %(next)s.": (
        "%(card)s nie może zacząć tej bazy: %(foundation)s – zaczyna ją %(next)s."
    ),
    "The %(card)s cannot go on the %(onto)s: the next card there is the %(next)s.": (
        "%(card)s nie może leżeć na tej karcie: %(onto)s – następna jest tam %(next)s."
    ),
    "The %(pile)s is empty.": "%(pile)s: pusto.",
    "Only the top card of the %(pile)s can move.": (
        "Przenieść można tylko wierzchnią kartę: %(pile)s."
    ),
    "Cards leave the stock only by drawing.": "Karty opuszczają zapas tylko przez dobieranie.",
    "A card cannot move onto its own pile.": "Karty nie można położyć na jej własnym stosie.",
    "Nothing can be put on the %(pile)s.": "Tu nie kładzie się kart: %(pile)s.",
    "In the classic rules cards never leave a foundation.": (
        "W zasadach klasycznych karty nigdy nie schodzą z bazy."
    ),
    "A foundation's top card can only go back to a column.": (
        "Wierzchnia karta bazy może wrócić tylko do kolumny."
    ),
    "Only one card at a time goes to a foundation.": "Na bazę kładzie się naraz tylko jedną kartę.",
    "In the classic rules only a whole column moves.": (
        "W zasadach klasycznych przenosi się tylko całą kolumnę."
    ),
    "An empty column is filled from the reserve.": "Pustą kolumnę wypełnia się z rezerwy.",
    "In the classic rules an empty column takes only the top card of the waste.": (
        "W zasadach klasycznych pusta kolumna przyjmuje tylko wierzchnią kartę z odrzutów."
    ),
    "Tap the waste, the reserve or a card in a column, not the stock.": (
        "Stuknij odrzuty, rezerwę lub kartę w kolumnie, nie zapas."
    ),
    "The stock is empty: turn the waste over to draw again.": (
        "Zapas jest pusty: odwróć odrzuty, aby dobierać dalej."
    ),
    "The waste can be turned over only when the stock is empty.": (
        "Odrzuty można odwrócić tylko przy pustym zapasie."
    ),
    "The waste is empty: there is nothing to turn over.": (
        "Odrzuty są puste: nie ma czego odwracać."
    ),
    "There is nothing to undo.": "Nie ma czego cofnąć.",
    "A card on a foundation cannot be tapped.": "Karty na bazie nie można stuknąć.",
    "The %(card)s has nowhere to go.": "%(card)s nie ma dokąd pójść.",
    "Invalid value for %(field)s; allowed: %(allowed)s.": (
        "Nieprawidłowa wartość pola %(field)s; dozwolone: %(allowed)s."
    ),
    "Unknown field(s): %(fields)s.": "Nieznane pola: %(fields)s.",
    "The body must be a JSON object.": "Treść żądania musi być obiektem JSON.",
    "That is not a valid deal code (like CF1-D3-AAAAACL).": (
        "To nie jest poprawny kod rozdania (np. CF1-D3-AAAAACL)."
    ),
    "A deal code uses only the letters A-Z and the digits 2-7, not %(characters)s.": (
        "Kod rozdania składa się tylko z liter A-Z i cyfr 2-7, nie z: %(characters)s."
    ),
    "A %(format)s code has %(length)s characters after its draw mode, not %(got)s.": (
        "Kod %(format)s ma po trybie dobierania %(length)s znaków, a nie %(got)s."
    ),
    "A CF2 code starts with a letter A-H after its draw mode (its number is below 2^128).": (
        "Kod CF2 po trybie dobierania zaczyna się literą A-H (jego liczba jest mniejsza niż 2^128)."
    ),
    "The deck must list the 52 cards, each once.": (
        "Talia musi zawierać wszystkie 52 karty, każdą jeden raz."
    ),
    "Entry %(index)s of the deck is not a card.": "Pozycja %(index)s talii nie jest kartą.",
    "The deck repeats: %(cards)s.": "Te karty powtarzają się w talii: %(cards)s.",
    "The service is temporarily unavailable: retry later.": (
        "Usługa jest chwilowo niedostępna: spróbuj ponownie później."
    ),
    "The request holds a value that cannot be stored.": (
        "Żądanie zawiera wartość, której nie można zapisać."
    ),
    "Not found.": "Nie znaleziono.",
    "You may not do this.": "Nie możesz tego zrobić.",
    "The request body is too large.": "Treść żądania jest za duża.",
    "There is no such API path.": "Nie ma takiej ścieżki API.",
    "%(name)s must be a whole number from 1 to %(highest)s.": (
        "%(name)s musi być liczbą całkowitą od 1 do %(highest)s."
    ),
    "Page %(page)s is past the last page (%(pages)s).": (
        "Strona %(page)s jest za ostatnią stroną (%(pages)s)."
    ),
    "status must be one of: %s.": "status musi być jednym z: %s.",
    "daily must be true or false.": "daily musi być true lub false.",
    "%s is not a date: expected YYYY-MM-DD.": "%s nie jest datą: oczekiwano RRRR-MM-DD.",
    "draw must be 3 or 1.": "draw musi być 3 lub 1.",
    "Wrong username or password.": "Błędna nazwa użytkownika lub hasło.",
    "Only the game's owner may play it.": "Grać może tylko właściciel gry.",
    "The game has moved on: moves is %(moves)s, not %(expect)s.": (
        "Gra poszła dalej: liczba ruchów to %(moves)s, nie %(expect)s."
    ),
    "The game has moved on: another action was applied first.": (
        "Gra poszła dalej: inna akcja została wykonana wcześniej."
    ),
    "The game is busy with other actions: retry.": "Gra wykonuje inne akcje: spróbuj ponownie.",
    "No such game.": "Nie ma takiej gry.",
    "Look": "Wygląd",
    "Table": "Stół",
    "Dark green felt": "Ciemnozielone sukno",
    "Light felt": "Jasne sukno",
    "Card back": "Rewers kart",
    "Blue stripes": "Niebieskie paski",
    "Red dots": "Czerwone kropki",
    "draw": "dobranie",
    "Hint": "Podpowiedź",
    "Hint: %(action)s": "Podpowiedź: %(action)s",
    "No winning line from here.": "Stąd nie ma wygrywającej drogi.",
    "No hint: the solver could not decide in time.": (
        "Brak podpowiedzi: program szukający rozwiązania nie zdążył rozstrzygnąć."
    ),
    "Only the game's owner may ask for a hint.": "O podpowiedź może prosić tylko właściciel gry.",
    "No hints in a ranked daily game while its day lasts.": (
        "W rankingowej grze dnia nie ma podpowiedzi, dopóki dzień trwa."
    ),
    # Matches and ratings (R32, R33): the server's messages.
    "No hints in a match game.": "W grze meczowej nie ma podpowiedzi.",
    "The match is over: its 24 hours are up.": "Mecz się skończył: minęły jego 24 godziny.",
    "No such match.": "Nie ma takiego meczu.",
    "No such player.": "Nie ma takiego gracza.",
    "%(name)s must be one of: %(choices)s.": "%(name)s musi być jednym z: %(choices)s.",
    "size must be one of: %(choices)s.": "size musi być jednym z: %(choices)s.",
    "players must be one of: %s.": "players musi być jednym z: %s.",
    "Matches are not set up on this server.": "Mecze nie są skonfigurowane na tym serwerze.",
    # Bots (R34): the account, the boards' tabs, the player page's mark
    "An account can declare itself a bot only before its first ranked game.": (
        "Konto może ogłosić się botem tylko przed swoją pierwszą grą rankingową."
    ),
    "players must be people or bots.": "players musi mieć wartość people albo bots.",
    "Whose board": "Czyja tablica",
    "People": "Ludzie",
    "Bots": "Boty",
    "A bot: it ranks among bots only.": "Bot: klasyfikowany tylko wśród botów.",
    "BOT": "BOT",
    "The day is over: this game ended at midnight.": (
        "Dzień się skończył: ta gra zakończyła się o północy."
    ),
    "Day over": "Koniec dnia",
    "Held for a fair-play review: off the public boards until staff have looked at it.": (
        "Wstrzymana do kontroli fair play: poza publicznymi tablicami, dopóki obsługa jej nie "
        "sprawdzi."
    ),
    "The server is busy: retry in %(seconds)s s.": (
        "Serwer jest zajęty: spróbuj ponownie za %(seconds)s s."
    ),
    # ---- issue 22: guests, Play now, the player page, leaving a game, first-game tips ----
    "Sign up first: a guest cannot declare itself a bot.": (
        "Najpierw załóż konto: gość nie może zgłosić się jako bot."
    ),
    "This account has signed up already.": "To konto jest już założone.",
    "Sign up to play the daily challenge: your games stay yours.": (
        "Załóż konto, aby zagrać w wyzwanie dnia: twoje gry zostaną zachowane."
    ),
    "Sign up to play a match: your games stay yours.": (
        "Załóż konto, aby zagrać mecz: twoje gry zostaną zachowane."
    ),
    "Your games so far, and the one you are playing, stay yours: they move to the account you "
    "create.": (
        "Twoje dotychczasowe gry, także ta w toku, zostaną zachowane: przejdą na zakładane konto."
    ),
    "Sign up: your games stay yours": "Załóż konto: twoje gry zostaną zachowane",
    "Play now": "Zagraj teraz",
    "Canfield solitaire in your browser: a random deal at once, no account needed.": (
        "Pasjans Canfield w przeglądarce: losowe rozdanie od razu, bez zakładania konta."
    ),
    "Sign up to play": "Załóż konto, aby grać",
    "Play now deals a random game at once. To choose the deal and the rules, and to keep your "
    "games:": (
        "„Zagraj teraz” od razu rozdaje losową grę. Aby wybrać rozdanie i zasady oraz zachować "
        "swoje gry:"
    ),
    "Win rate": "Odsetek wygranych",
    "By draw mode": "Według trybu dobierania",
    "These figures count random and daily games that are over, played without hints and with at "
    "least one move. Games left unfinished never count, nor do practice games, dealt from a deal "
    "code or a deck the player chose: their cards are known in advance.": (
        "Te statystyki liczą zakończone gry losowe i dzienne, rozegrane bez podpowiedzi i z co "
        "najmniej jednym ruchem. Gry porzucone w trakcie nigdy się nie liczą, podobnie jak gry "
        "treningowe, rozdane z kodu rozdania lub talii wybranej przez gracza: ich karty są znane "
        "z góry."
    ),
    "Daily challenges": "Wyzwania dnia",
    "The last 30 days": "Ostatnie 30 dni",
    "today": "dziś",
    "3 cards": "3 karty",
    "1 card": "1 karta",
    "won": "wygrana",
    "playing": "w toku",
    "In progress": "W toku",
    "Ended": "Zakończona",
    "No daily challenge played yet.": "Brak rozegranych wyzwań dnia.",
    "Left unfinished": "Porzucona w trakcie",
    "Pages of games": "Strony gier",
    "Newer": "Nowsze",
    "Page %(page)s of %(pages)s": "Strona %(page)s z %(pages)s",
    "Older": "Starsze",
    "Too many guests were created from this address. Try later.": (
        "Z tego adresu utworzono zbyt wielu gości. Spróbuj później."
    ),
    "Leave this game?": "Opuścić tę grę?",
    "Keep playing": "Graj dalej",
    "Leave and start a new game": "Opuść i zacznij nową grę",
    "Your daily game stays open until midnight: you can come back to it from the home page until "
    "then.": (
        "Twoja gra dnia pozostaje otwarta do północy: do tego czasu możesz do niej wrócić ze "
        "strony głównej."
    ),
    "It stays in your recent games, so you can come back to it. A game left alone for 7 days ends "
    "by itself and does not count in your statistics.": (
        "Zostaje na liście twoich ostatnich gier, więc możesz do niej wrócić. Gra nieruszana przez "
        "7 dni kończy się sama i nie liczy się do twoich statystyk."
    ),
    "Four tips for your first game": "Cztery wskazówki na pierwszą grę",
    "Build the four foundations up by suit, starting from the rank of the first foundation's "
    "card. After the king comes the ace.": (
        "Układaj cztery bazy w górę według koloru, zaczynając od rangi karty na pierwszej bazie. "
        "Po królu przychodzi as."
    ),
    "In the four columns, put a card on one a rank higher of the other colour. When a column "
    "empties, the reserve's top card fills it.": (
        "W czterech kolumnach kładź kartę na kartę o jedną rangę wyższą w przeciwnym kolorze. Gdy "
        "kolumna się opróżni, wypełnia ją wierzchnia karta rezerwy."
    ),
    "Click or tap the stock to draw. Drag a card where it goes, or tap it to send it where it "
    "fits.": (
        "Kliknij lub dotknij zapasu, aby dobrać. Przeciągnij kartę na jej miejsce albo dotknij "
        "jej, a trafi tam, gdzie pasuje."
    ),
    "Stuck? Undo, ask for a hint, or read the rules:": (
        "Nie wiesz, co dalej? Cofnij ruch, poproś o podpowiedź albo przeczytaj zasady:"
    ),
    "Got it": "Rozumiem",
    "new_password must be a non-empty string": "new_password musi być niepustym tekstem.",
    "password must be a non-empty string": "password musi być niepustym tekstem.",
    "Wrong password.": "Błędne hasło.",
    "%(field)s must be a non-empty string.": "Pole %(field)s musi być niepustym tekstem.",
    "%(field)s must be at most %(max)s characters, without NUL.": (
        "Pole %(field)s może mieć najwyżej %(max)s znaków, bez NUL."
    ),
    "Too many accounts were created from this address.": (
        "Z tego adresu założono zbyt wiele kont."
    ),
    "ruleset must be one of: %(values)s.": "ruleset musi być jednym z: %(values)s.",
    "draw must be 1 or 3.": "draw musi wynosić 1 lub 3.",
    "daily can only be true (leave it out for a game that is not the daily one).": (
        "daily może mieć tylko wartość true (pomiń je dla gry innej niż dzienna)."
    ),
    "A daily game is today's deal with the app rules: send only draw.": (
        "Gra dzienna to dzisiejsze rozdanie z zasadami aplikacji: wyślij tylko draw."
    ),
    "Send a code or a deck, not both.": "Wyślij kod rozdania albo talię, nie oba naraz.",
    "draw %(draw)s contradicts the code's draw %(code_draw)s.": (
        "draw %(draw)s przeczy trybowi dobierania kodu (%(code_draw)s)."
    ),
    "deck must be a list of 52 card names.": "deck musi być listą 52 nazw kart.",
    "expect must be a whole number of moves (0 or more).": (
        "expect musi być liczbą ruchów (całkowitą, 0 lub więcej)."
    ),
    "lang must be one of: %(values)s.": "lang musi być jednym z: %(values)s.",
    "Invalid token header: give the key after the word, without spaces.": (
        "Błędny nagłówek uwierzytelniania: podaj klucz po słowie, bez spacji."
    ),
    "Invalid token header: the key has characters no key has.": (
        "Błędny nagłówek uwierzytelniania: klucz zawiera znaki, których żaden klucz nie ma."
    ),
    "Invalid token.": "Nieprawidłowy klucz.",
    "This key has expired.": "Ten klucz wygasł.",
    "This account is closed.": "To konto zostało zamknięte.",
    "Too many requests.": "Zbyt wiele żądań.",
    "The body is nested too deeply.": "Treść żądania jest zagnieżdżona zbyt głęboko.",
    "The body is not valid JSON.": "Treść żądania nie jest poprawnym JSON-em.",
    "name must be a non-empty string of at most 100 characters.": (
        "name musi być niepustym tekstem o długości najwyżej 100 znaków."
    ),
    "scopes must be a non-empty list of: %(scopes)s.": (
        "scopes musi być niepustą listą spośród: %(scopes)s."
    ),
    "A key cannot make a key with scopes it lacks: %(scopes)s.": (
        "Klucz nie może utworzyć klucza z uprawnieniami, których sam nie ma: %(scopes)s."
    ),
    "days must be a whole number from 1 to %(max)s.": (
        "days musi być liczbą całkowitą od 1 do %(max)s."
    ),
    "An account holds at most %(max)s keys: revoke one first.": (
        "Konto może mieć najwyżej %(max)s kluczy: najpierw unieważnij jeden."
    ),
    "No such key.": "Nie ma takiego klucza.",
    "The code_challenge_method must be S256.": "code_challenge_method musi wynosić S256.",
    "see your account, your games and your keys": "widzieć twoje konto, gry i klucze",
    "change your account and its keys": "zmieniać twoje konto i jego klucze",
    "deal games and play them in your name": "rozdawać gry i grać w twoim imieniu",
    "read games, boards and players as anyone may": (
        "czytać gry, rankingi i graczy, jak każdy może"
    ),
    "This key lacks the scope %(scope)s needed here.": (
        "Ten klucz nie ma potrzebnego tu uprawnienia %(scope)s."
    ),
    "There is no %(draw)s-card daily challenge on %(date)s.": (
        "Dnia %(date)s nie ma dziennego wyzwania z dobieraniem %(draw)s kart."
    ),
    "There is no daily challenge on %(date)s yet.": (
        "Na dzień %(date)s nie ma jeszcze dziennego wyzwania."
    ),
    "There is no daily challenge on %(date)s.": "Dnia %(date)s nie ma dziennego wyzwania.",
    "Name": "Nazwa",
    "What it may do": "Co może robić",
    "Expires after (days; empty: never)": "Wygasa po (dniach; puste: nigdy)",
    "I understand: my account is closed for good and cannot come back.": (
        "Rozumiem: moje konto zostanie zamknięte na zawsze i nie da się go przywrócić."
    ),
    "Account": "Konto",
    "API keys": "Klucze API",
    "Change password": "Zmień hasło",
    "Download my games": "Pobierz moje gry",
    "Delete account": "Usuń konto",
    "Your account is deleted": "Twoje konto zostało usunięte",
    "You can no longer log in, and your keys no longer work. Your games stay on the boards "
    "under a name that says nothing about you.": (
        "Nie możesz się już zalogować, a twoje klucze przestały działać. Twoje gry zostają w "
        "rankingach pod nazwą, która nic o tobie nie mówi."
    ),
    "Deleting your account closes it for good: you can no longer log in, your API keys and "
    "app permissions stop working, and your name on boards becomes “deleted-” and a number. "
    "Your games stay, so that everyone's ranks stay as they were. Download your games first "
    "if you want to keep them.": (
        "Usunięcie konta zamyka je na zawsze: nie zalogujesz się już, twoje klucze API i "
        "zgody dla aplikacji przestaną działać, a twoja nazwa w rankingach zmieni się na "
        "„deleted-” i numer. Twoje gry zostają, więc niczyje miejsca się nie zmienią. Jeśli "
        "chcesz je zachować, najpierw pobierz swoje gry."
    ),
    "Delete my account": "Usuń moje konto",
    "A key lets a program (a bot, an app) use the API in your name, with only the permissions "
    "you give it. Keep it secret.": (
        "Klucz pozwala programowi (botowi, aplikacji) korzystać z API w twoim imieniu, tylko z "
        "nadanymi mu uprawnieniami. Trzymaj go w tajemnicy."
    ),
    "Your new key “%(name)s”": "Twój nowy klucz „%(name)s”",
    "Copy it now: it is shown this once, the server keeps only a fingerprint of it.": (
        "Skopiuj go teraz: widać go tylko ten raz, serwer przechowuje jedynie jego odcisk."
    ),
    "Starts with": "Początek",
    "Permissions": "Uprawnienia",
    "Created": "Utworzono",
    "Expires": "Wygasa",
    "Last used": "Ostatnio użyty",
    "Revoke": "Unieważnij",
    "never": "nigdy",
    "No keys yet.": "Nie ma jeszcze kluczy.",
    "Make a key": "Nowy klucz",
    "Make the key": "Utwórz klucz",
    "Your password is changed. You stay signed in here; your other sessions have ended. Your "
    "API keys keep working.": (
        "Hasło zostało zmienione. Tutaj pozostajesz zalogowany; pozostałe sesje zakończyły "
        "się. Twoje klucze API działają dalej."
    ),
    "Current password": "Obecne hasło",
    "New password": "Nowe hasło",
    "New password again": "Powtórz nowe hasło",
    "Allow an app?": "Zezwolić aplikacji?",
    "Allow %(app)s to use your account?": "Zezwolić aplikacji %(app)s na korzystanie z konta?",
    "Signed in as %(user)s. The app will be able to:": (
        "Zalogowano jako %(user)s. Aplikacja będzie mogła:"
    ),
    "It never learns your password. You can take the permission back on the API keys page.": (
        "Nigdy nie pozna twojego hasła. Zgodę możesz cofnąć na stronie kluczy API."
    ),
    "Allow": "Zezwól",
    "Deny": "Odmów",
    "This app's request cannot be served": "Nie można spełnić żądania tej aplikacji",
    # Issue 22: the table (phones, the end of a game, the feel).
    "Finish": "Dokończ",
    "Menu": "Menu",
    "No more moves": "Brak ruchów",
    "End game": "Zakończ grę",
    "End this game? It ends with its current score.": (
        "Zakończyć tę grę? Skończy się z obecnym wynikiem."
    ),
    "game ended": "gra zakończona",
    "%(home)s of 52 cards home": "%(home)s z 52 kart na bazach",
    "next: %(card)s": "dalej: %(card)s",
    "complete": "pełna",
    "Sound effects": "Efekty dźwiękowe",
    "Blue felt": "Niebieskie sukno",
    "Burgundy felt": "Bordowe sukno",
    "Green checks": "Zielona kratka",
    "Black and gold": "Czarno-złoty",
    "Card size": "Rozmiar kart",
    "Medium": "Średnie",
    "Small": "Małe",
    "Large": "Duże",
    "Restart this deal? This game ends here and the same cards are dealt again as practice.": (
        "Zagrać to rozdanie od nowa? Ta gra kończy się tutaj, a te same karty zostaną "
        "rozdane ponownie jako trening."
    ),
    # Issue 24 (schema fidelity, a player's games)
    "These fields cannot be null: %s.": "Te pola nie mogą mieć wartości null: %s.",
    "daily must be true; leave it out for any other game.": (
        "daily może mieć tylko wartość true; w innej grze pomiń to pole."
    ),
}

HU_PLURALS: dict[str, tuple[str, ...]] = {
    "%(count)s card played up to the foundations": (
        "%(count)s lap az alapokra került",
        "%(count)s lap az alapokra került",
    ),
    "Par: %(count)s move": ("Legrövidebb megoldás: %(count)s lépés",) * 2,
    "Par: at most %(count)s move": ("Legrövidebb megoldás: legfeljebb %(count)s lépés",) * 2,
    "%(count)s card": ("%(count)s lap", "%(count)s lap"),
    "%(count)s player": ("%(count)s játékos", "%(count)s játékos"),
    "%(count)s move": ("%(count)s lépés", "%(count)s lépés"),
    "%(pile)s holds only %(holds)s card.": ("%(pile)s csak %(holds)s lapot tartalmaz.",) * 2,
    "%(home)s card home": ("%(home)s lap az alapokon", "%(home)s lap az alapokon"),
    "%(home)s of 52 cards home": ("%(home)s / 52 lap az alapokon",) * 2,
    "Try again in %(seconds)s second.": ("Próbáld újra %(seconds)s másodperc múlva.",) * 2,
}
# Polish forms: one, few (2-4, 22-24...), many (5-21, 25...), fractions.
PL_PLURALS: dict[str, tuple[str, ...]] = {
    "%(count)s card played up to the foundations": (
        "%(count)s karta poszła na bazy",
        "%(count)s karty poszły na bazy",
        "%(count)s kart poszło na bazy",
        "%(count)s karty poszło na bazy",
    ),
    "Par: %(count)s move": (
        "Najkrótsza wygrana: %(count)s ruch",
        "Najkrótsza wygrana: %(count)s ruchy",
        "Najkrótsza wygrana: %(count)s ruchów",
        "Najkrótsza wygrana: %(count)s ruchu",
    ),
    "Par: at most %(count)s move": (
        "Najkrótsza wygrana: najwyżej %(count)s ruch",
        "Najkrótsza wygrana: najwyżej %(count)s ruchy",
        "Najkrótsza wygrana: najwyżej %(count)s ruchów",
        "Najkrótsza wygrana: najwyżej %(count)s ruchu",
    ),
    "%(count)s card": ("%(count)s karta", "%(count)s karty", "%(count)s kart", "%(count)s karty"),
    "%(count)s player": (
        "%(count)s gracz",
        "%(count)s graczy",
        "%(count)s graczy",
        "%(count)s gracza",
    ),
    "%(count)s move": ("%(count)s ruch", "%(count)s ruchy", "%(count)s ruchów", "%(count)s ruchu"),
    "%(pile)s holds only %(holds)s card.": (
        "%(pile)s ma tylko %(holds)s kartę.",
        "%(pile)s ma tylko %(holds)s karty.",
        "%(pile)s ma tylko %(holds)s kart.",
        "%(pile)s ma tylko %(holds)s karty.",
    ),
    "%(home)s card home": (
        "%(home)s karta na bazach",
        "%(home)s karty na bazach",
        "%(home)s kart na bazach",
        "%(home)s karty na bazach",
    ),
    "%(home)s of 52 cards home": ("%(home)s z 52 kart na bazach",) * 4,
    "Try again in %(seconds)s second.": (
        "Spróbuj ponownie za %(seconds)s sekundę.",
        "Spróbuj ponownie za %(seconds)s sekundy.",
        "Spróbuj ponownie za %(seconds)s sekund.",
        "Spróbuj ponownie za %(seconds)s sekundy.",
    ),
}

# ---- Matches and ratings (issue 23): the pages and the match panel -----------------------
HU |= {
    # the pages
    "Match": "Meccs",
    "Matches": "Meccsek",
    "Waiting for the other players to finish their games.": (
        "Várakozás, hogy a többi játékos befejezze a játszmáját."
    ),
    "The whole match": "Az egész meccs",
    "Match over": "Vége a meccsnek",
    "The deal's code:": "A leosztás kódja:",
    "Play another match": "Új meccs",
    "Ratings board": "Értékszám-ranglista",
    "Match ratings": "Meccs-értékszámok",
    "A rating is provisional (?) for its first 10 matches.": (
        "Az értékszám az első 10 meccsig ideiglenes (?)."
    ),
    "Your game": "A játszmád",
    "Play the same deal as players of your level: one opponent or three. Nobody waits: your game "
    "is dealt at once and the others play theirs when they come. Every match is rated.": (
        "Ugyanazt a leosztást játszod, mint a hozzád hasonló szintű játékosok: egy vagy három "
        "ellenfél. Senki sem vár: a játszmád azonnal leosztjuk, a többiek akkor játsszák a "
        "sajátjukat, amikor jönnek. Minden meccs számít az értékszámba."
    ),
    "Players": "Játékosok",
    "1 v 1": "1 az 1 ellen",
    "Table of 4": "4 fős asztal",
    "Play a match": "Meccs indítása",
    "Ratings boards:": "Értékszám-ranglisták:",
    "Your open matches": "Nyitott meccseid",
    "No open match.": "Nincs nyitott meccs.",
    "Recent matches": "Legutóbbi meccsek",
    "Mode": "Mód",
    "Place": "Helyezés",
    "Rating": "Értékszám",
    "No finished match yet.": "Még nincs befejezett meccs.",
    "Your ratings": "Értékszámaid",
    "No rating yet: finish a match.": "Még nincs értékszámod: fejezz be egy meccset.",
    "Ratings": "Értékszámok",
    "Modes": "Módok",
    "Nobody has a rating in this mode yet.": "Ebben a módban még senkinek sincs értékszáma.",
    # the scripts
    "Open: the players' figures change as they play.": (
        "Nyitott: a játékosok adatai játék közben változnak."
    ),
    "Finished.": "Befejeződött.",
    "Nobody else has sat down yet: your opponents play this deal when they come.": (
        "Még senki más nem ült le: az ellenfeleid akkor játsszák ezt a leosztást, amikor jönnek."
    ),
    "playing": "játszik",
    "won": "megnyerte",
    "resigned": "feladta",
    "time up": "lejárt az idő",
    "%(cards)s, %(moves)s, %(time)s": "%(cards)s, %(moves)s, %(time)s",
    "rating %(rating)s (%(change)s)": "értékszám: %(rating)s (%(change)s)",
    "%(place)s.": "%(place)s.",
    "The match was cancelled: nobody else played it. Ratings did not change.": (
        "A meccs elmaradt: senki más nem játszotta. Az értékszámok nem változtak."
    ),
    "You placed %(place)s of %(count)s. Ratings change once the games held for a fair-play "
    "review are cleared.": (
        "Helyezésed: %(place)s. / %(count)s. Az értékszámok akkor változnak, amikor a "
        "sportszerűségi ellenőrzésre visszatartott játszmákat jóváhagyják."
    ),
    "You placed %(place)s of %(count)s. Rating: %(rating)s (%(change)s).": (
        "Helyezésed: %(place)s. / %(count)s. Értékszám: %(rating)s (%(change)s)."
    ),
    "%(taken)s of %(size)s seats taken": "%(taken)s / %(size)s hely foglalt",
    "the match": "a meccs",
    "Details": "Részletek",
    "This week's best gains": "A hét legnagyobb nyerői",
    "The sum of each player's rating changes since Monday; the board starts again every Monday.": (
        "Minden játékos értékszám-változásainak összege hétfő óta; a lista minden hétfőn újraindul."
    ),
    "Gain": "Nyereség",
    "%(player)s joined the match.": "%(player)s beszállt a meccsbe.",
    "%(player)s's game ended: %(figures)s": "%(player)s játszmája véget ért: %(figures)s",
    "No rated match this week yet.": "Ezen a héten még nem volt értékelt meccs.",
}
HU_PLURALS |= {
    "%(count)s card home": ("%(count)s lap az alapokon",) * 2,
    "From %(first)s to %(last)s over %(count)s match; lowest %(low)s, highest %(high)s.": (
        "Kezdet: %(first)s, %(count)s meccs után: %(last)s; legalacsonyabb %(low)s, "
        "legmagasabb %(high)s.",
    )
    * 2,
    "%(count)s match": ("%(count)s meccs",) * 2,
}
PL |= {
    "Match": "Mecz",
    "Matches": "Mecze",
    "Waiting for the other players to finish their games.": (
        "Czekamy, aż pozostali gracze skończą swoje partie."
    ),
    "The whole match": "Cały mecz",
    "Match over": "Koniec meczu",
    "The deal's code:": "Kod rozdania:",
    "Play another match": "Zagraj kolejny mecz",
    "Ratings board": "Tabela rankingowa",
    "Match ratings": "Rankingi meczowe",
    "A rating is provisional (?) for its first 10 matches.": (
        "Ranking jest tymczasowy (?) przez pierwsze 10 meczów."
    ),
    "Your game": "Twoja partia",
    "Play the same deal as players of your level: one opponent or three. Nobody waits: your game "
    "is dealt at once and the others play theirs when they come. Every match is rated.": (
        "Graj to samo rozdanie co gracze na twoim poziomie: z jednym przeciwnikiem albo z trzema. "
        "Nikt nie czeka: twoja partia jest rozdawana od razu, a pozostali grają swoje, gdy "
        "przyjdą. Każdy mecz liczy się do rankingu."
    ),
    "Players": "Gracze",
    "1 v 1": "1 na 1",
    "Table of 4": "Stół na 4",
    "Play a match": "Zagraj mecz",
    "Ratings boards:": "Tabele rankingowe:",
    "Your open matches": "Twoje otwarte mecze",
    "No open match.": "Brak otwartych meczów.",
    "Recent matches": "Ostatnie mecze",
    "Mode": "Tryb",
    "Place": "Miejsce",
    "Rating": "Ranking",
    "No finished match yet.": "Nie ma jeszcze zakończonego meczu.",
    "Your ratings": "Twoje rankingi",
    "No rating yet: finish a match.": "Nie masz jeszcze rankingu: dokończ mecz.",
    "Ratings": "Rankingi",
    "Modes": "Tryby",
    "Nobody has a rating in this mode yet.": "Nikt nie ma jeszcze rankingu w tym trybie.",
    "Open: the players' figures change as they play.": (
        "Otwarty: wyniki graczy zmieniają się w trakcie gry."
    ),
    "Finished.": "Zakończony.",
    "Nobody else has sat down yet: your opponents play this deal when they come.": (
        "Nikt inny jeszcze nie usiadł: przeciwnicy zagrają to rozdanie, gdy przyjdą."
    ),
    "playing": "gra",
    "won": "wygrana",
    "resigned": "poddana",
    "time up": "koniec czasu",
    "%(cards)s, %(moves)s, %(time)s": "%(cards)s, %(moves)s, %(time)s",
    "rating %(rating)s (%(change)s)": "ranking %(rating)s (%(change)s)",
    "%(place)s.": "%(place)s.",
    "The match was cancelled: nobody else played it. Ratings did not change.": (
        "Mecz został anulowany: nikt inny go nie zagrał. Rankingi się nie zmieniły."
    ),
    "You placed %(place)s of %(count)s. Ratings change once the games held for a fair-play "
    "review are cleared.": (
        "Zająłeś miejsce %(place)s z %(count)s. Rankingi zmienią się, gdy partie wstrzymane do "
        "kontroli uczciwej gry zostaną zatwierdzone."
    ),
    "You placed %(place)s of %(count)s. Rating: %(rating)s (%(change)s).": (
        "Zająłeś miejsce %(place)s z %(count)s. Ranking: %(rating)s (%(change)s)."
    ),
    "%(taken)s of %(size)s seats taken": "zajęte miejsca: %(taken)s z %(size)s",
    "the match": "mecz",
    "Details": "Szczegóły",
    "This week's best gains": "Największe zyski tygodnia",
    "The sum of each player's rating changes since Monday; the board starts again every Monday.": (
        "Suma zmian rankingu każdego gracza od poniedziałku; tabela zaczyna się od nowa w "
        "każdy poniedziałek."
    ),
    "Gain": "Zysk",
    "%(player)s joined the match.": "%(player)s dołączył do meczu.",
    "%(player)s's game ended: %(figures)s": "Partia gracza %(player)s się skończyła: %(figures)s",
    "No rated match this week yet.": "W tym tygodniu nie było jeszcze meczu rankingowego.",
}
PL_PLURALS |= {
    "%(count)s card home": (
        "%(count)s karta na bazach",
        "%(count)s karty na bazach",
        "%(count)s kart na bazach",
        "%(count)s karty na bazach",
    ),
    "From %(first)s to %(last)s over %(count)s match; lowest %(low)s, highest %(high)s.": (
        "Od %(first)s do %(last)s w %(count)s meczu; najniżej %(low)s, najwyżej %(high)s.",
        "Od %(first)s do %(last)s w %(count)s meczach; najniżej %(low)s, najwyżej %(high)s.",
        "Od %(first)s do %(last)s w %(count)s meczach; najniżej %(low)s, najwyżej %(high)s.",
        "Od %(first)s do %(last)s w %(count)s meczu; najniżej %(low)s, najwyżej %(high)s.",
    ),
    "%(count)s match": ("%(count)s mecz", "%(count)s mecze", "%(count)s meczów", "%(count)s meczu"),
}


ENTRY = re.compile(
    r'((?:msgctxt (?:"(?:[^"\\]|\\.)*"\n)+)?msgid (?:"(?:[^"\\]|\\.)*"\n)+)'
    r'(msgstr (?:"(?:[^"\\]|\\.)*"\n)+)'
)
PLURAL_ENTRY = re.compile(
    r'(msgid (?:"(?:[^"\\]|\\.)*"\n)+msgid_plural (?:"(?:[^"\\]|\\.)*"\n)+)'
    r'((?:msgstr\[\d\] (?:"(?:[^"\\]|\\.)*"\n)+)+)'
)


def _text(lines: str) -> str:
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', lines)).replace('\\"', '"')


def fill(path: Path, catalogue: dict[str, str], plurals: dict[str, tuple[str, ...]]) -> list[str]:
    source = path.read_text(encoding="utf-8")
    missing = []

    def replace_plural(match: re.Match[str]) -> str:
        msgid = _text(match.group(1).split("msgid_plural")[0])
        if msgid not in plurals:
            missing.append(msgid)
            return match.group(0)
        forms = "".join(
            f'msgstr[{index}] "{form.replace(chr(34), chr(92) + chr(34))}"\n'
            for index, form in enumerate(plurals[msgid])
        )
        return match.group(1) + forms

    def replace(match: re.Match[str]) -> str:
        context, _sep, message = match.group(1).rpartition("msgid ")
        msgid = _text(message)
        if context:  # pgettext: the key is "context\x04msgid", as gettext keeps it
            msgid = _text(context.removeprefix("msgctxt ")) + CONTEXT + msgid
        if not msgid:
            return match.group(0)
        if msgid not in catalogue:
            missing.append(msgid)
            return match.group(0)
        escaped = catalogue[msgid].replace('"', '\\"')
        return f'{match.group(1)}msgstr "{escaped}"\n'

    # makemessages guesses "fuzzy" translations from similar msgids; every msgstr here is set
    # from the catalogue above, so the guess marks (which gettext would skip) go.
    filled = PLURAL_ENTRY.sub(replace_plural, ENTRY.sub(replace, source))
    filled = filled.replace("#, fuzzy\n", "").replace("#, fuzzy, ", "#, ")
    filled = re.sub(r"^#\| .*\n", "", filled, flags=re.MULTILINE)
    filled = filled.replace('"Language: \\n"', f'"Language: {path.parts[-3]}\\n"')
    path.write_text(filled, encoding="utf-8")
    return missing


if __name__ == "__main__":
    root = Path(__file__).resolve().parent
    for lang, catalogue, plurals in (
        ("hu", HU, HU_PLURALS),
        ("pl", PL, PL_PLURALS),
        ("en", {}, {}),
    ):
        for domain in ("django", "djangojs"):
            po = root / lang / "LC_MESSAGES" / f"{domain}.po"
            missing = fill(po, catalogue, plurals)
            if missing and lang != "en":
                raise SystemExit(f"{lang}: no translation for {missing}")
            mo = po.with_suffix(".mo")
            subprocess.run(["msgfmt", "--check", "-o", str(mo), str(po)], check=True)
