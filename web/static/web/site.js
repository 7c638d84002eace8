// On every page: the table's look (the felt, the card back, the card size) follows the
// player's choice kept in this browser. The first value of each is the default.

export const LOOKS = {
  felt: ["dark", "light", "blue", "wine"],
  back: ["blue", "red", "green", "black"],
  size: ["medium", "small", "large"],
};

export function applyLook() {
  for (const [name, values] of Object.entries(LOOKS)) {
    const chosen = localStorage.getItem(name);
    document.body.dataset[name] = values.includes(chosen) ? chosen : values[0];
  }
}

applyLook();
