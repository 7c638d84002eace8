// The one way the pages talk to the server: the REST API of docs/api.md, with the session cookie
// and Django's CSRF token, errors turned into ApiError carrying the server's code, rule, params
// and message (asked for in the page's language). The words come from Django's JavaScript
// catalogue (gettext, ngettext: /jsi18n/, loaded by base.html before the modules).

export class ApiError extends Error {
  constructor(status, code, message, rule = null, params = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.rule = rule;
    this.params = params || {};
  }
}

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export async function api(method, path, body) {
  const options = {
    method,
    credentials: "same-origin",
    headers: { Accept: "application/json", "Accept-Language": pageLang() },
  };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  if (method !== "GET") options.headers["X-CSRFToken"] = csrfToken();
  let response;
  try {
    response = await fetch(`/api/v1/${path}`, options);
  } catch (error) {
    throw new ApiError(0, "network", gettext("Something went wrong. Please try again."));
  }
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  if (!response.ok) {
    const detail = (data && data.error) || {};
    throw new ApiError(
      response.status,
      detail.code || "error",
      detail.message || gettext("Something went wrong. Please try again."),
      detail.rule || null,
      detail.params,
    );
  }
  return data;
}

// A counted phrase in the language's plural form:
// counted(ngettext("%(count)s card", "%(count)s cards", n), n) (ngettext spelled out, so that
// makemessages finds the phrase).
export function counted(template, count) {
  return format(template, { count });
}

export function format(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
}

export function pageLang() {
  return document.body.dataset.lang || "en";
}

export function currentUser() {
  return document.body.dataset.user || "";
}

export function formatSeconds(seconds) {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return `${h ? h + ":" : ""}${mm}:${String(s).padStart(2, "0")}`;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role") {
      node.setAttribute(key, value);
    } else node[key] = value;
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}
