// double.mjs sends one chat completion of a session through the official
// Node openai client and prints a JSON line: what came back, or the error
// the client raised for it.
//
//   node double.mjs BASE_URL API_KEY SESSION STRATEGY VIA QUESTION
//
// The session goes in the X-Session-Id header. STRATEGY ("" for none) is
// sent as the body's multitask_strategy field when VIA is "body", as the
// X-Multitask-Strategy header when VIA is "header". The completion asks
// for the turn's whole result (X-Sgrgraph-Result: full), and the line
// carries its turn number. The script exits 0 whatever the call did; a
// crash of its own exits non-zero.
import OpenAI, { APIError } from "openai";

const [baseURL, apiKey, session, strategy, via, question] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 60_000 });

const body = { model: "sgrgraph", messages: [{ role: "user", content: question }] };
const headers = { "X-Session-Id": session, "X-Sgrgraph-Result": "full" };
if (strategy && via === "body") {
  body.multitask_strategy = strategy;
} else if (strategy && via === "header") {
  headers["X-Multitask-Strategy"] = strategy;
} else if (strategy) {
  throw new Error(`VIA: ${via} is neither body nor header`);
}

let line;
try {
  const res = await client.chat.completions.create(body, { headers });
  line = { call: "create", ok: true, content: res.choices?.[0]?.message?.content ?? "", turn: res.sgrgraph?.turn ?? null };
} catch (err) {
  line = {
    call: "create",
    ok: false,
    class: err?.constructor?.name ?? typeof err,
    apiError: err instanceof APIError,
    status: err?.status ?? null,
    code: err?.code ?? null,
    message: String(err?.message ?? err),
  };
}
console.log(JSON.stringify(line));
