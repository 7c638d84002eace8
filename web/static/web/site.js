// On every page: the table's look (light or dark felt, the card back) follows the player's
// choice kept in this browser.

export const LOOKS = { felt: ["dark", "light"], back: ["blue", "red"] };

export function applyLook() {
  for (const [name, values] of Object.entries(LOOKS)) {
    const chosen = localStorage.getItem(name);
    document.body.dataset[name] = values.includes(chosen) ? chosen : values[0];
  }
}

applyLook();
