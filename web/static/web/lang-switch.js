// The language switcher submits itself when a language is picked (a file, not an inline
// handler: the Content-Security-Policy allows no inline script).
const select = document.getElementById("lang-select");
if (select) {
  select.addEventListener("change", () => select.form.submit());
}
