// chat.mjs asks serve one question through the official Node openai client,
// once as a completion and once as a stream, and prints a JSON line for
// each: what came back, or the error the client raised.
//
//   node chat.mjs BASE_URL QUESTION
//
// The openai package is resolved from node_modules beside this file. The
// script exits 0 whatever the calls did; a crash of its own exits non-zero.
import OpenAI, { APIError } from "openai";

const [baseURL, question] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey: "x", maxRetries: 0, timeout: 60_000 });
const params = { model: "sgrgraph", messages: [{ role: "user", content: question }] };

function failure(call, err) {
  return {
    call,
    ok: false,
    class: err?.constructor?.name ?? typeof err,
    apiError: err instanceof APIError,
    status: err?.status ?? null,
    code: err?.code ?? null,
    retryAfter: err?.headers?.get?.("retry-after") ?? null,
    message: String(err?.message ?? err),
  };
}

async function completion() {
  try {
    const res = await client.chat.completions.create(params);
    return { call: "create", ok: true, content: res.choices?.[0]?.message?.content ?? "" };
  } catch (err) {
    return failure("create", err);
  }
}

async function streamed() {
  let content = "";
  let chunks = 0;
  try {
    const stream = await client.chat.completions.create({ ...params, stream: true });
    for await (const chunk of stream) {
      chunks++;
      content += chunk.choices?.[0]?.delta?.content ?? "";
    }
    return { call: "stream", ok: true, chunks, content };
  } catch (err) {
    return { ...failure("stream", err), chunks };
  }
}

// One after the other, as the Go client's TestModelFaults asks.
console.log(JSON.stringify(await completion()));
console.log(JSON.stringify(await streamed()));
