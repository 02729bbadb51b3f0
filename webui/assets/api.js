// Calls to the server's API with the tab's API key. When the server has
// keys and answers 401, the page asks for one (once: it is kept in
// sessionStorage, which lives as long as the tab) and sends the request
// again.

const keyName = "sgrgraph.key";

let askKey = async () => null;

// onKeyNeeded sets how a key is asked for: ask(rejected) resolves to the
// key, or null when the person declines; rejected says a key was sent
// and refused.
export function onKeyNeeded(ask) {
  askKey = ask;
}

export async function api(path, init = {}) {
  for (;;) {
    const key = sessionStorage.getItem(keyName);
    const headers = new Headers(init.headers || {});
    if (key) headers.set("Authorization", "Bearer " + key);
    const res = await fetch(path, { ...init, headers });
    if (res.status !== 401) return res;
    const next = await askKey(Boolean(key));
    if (!next) return res;
    sessionStorage.setItem(keyName, next);
  }
}

// APIError is an error answer of the API: its HTTP status (0 for an error
// event in a stream that had begun) and OpenAI's type and code, which say
// what kind of failure it was whatever the message's words.
export class APIError extends Error {
  constructor(message, status, type, code) {
    super(message);
    this.status = status;
    this.type = type || "";
    this.code = code || "";
  }
}

// errorOf reads an error response (OpenAI's error shape) as an APIError.
export async function errorOf(res) {
  try {
    const body = await res.json();
    const e = body?.error || {};
    return new APIError(e.message || res.status + " " + res.statusText, res.status, e.type, e.code);
  } catch {
    return new APIError(res.status + " " + res.statusText, res.status);
  }
}

// errorMessage is the message of an error response.
export async function errorMessage(res) {
  return (await errorOf(res)).message;
}

// streamTurn runs one turn and calls onEvent(name, data) for each
// server-sent event (node_start … token … result, error) until [DONE].
export async function streamTurn(body, signal, onEvent) {
  const res = await api("/v1/turns", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal,
  });
  if (!res.ok) throw await errorOf(res);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    for (let end; (end = buffer.indexOf("\n\n")) >= 0; ) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length === 0) continue; // a keep-alive comment
      if (data.join("\n") === "[DONE]") return;
      onEvent(name, JSON.parse(data.join("\n")));
    }
  }
}
