package runs

import "github.com/redis/go-redis/v9"

// The scripts keep each step of a run atomic: no worker sees a run half
// submitted, half started or half finished. KEYS are the run's hash, the
// queue stream, the run's event stream and the webhook stream, in that
// order, where used. A run that ends with a webhook in its spec is added
// to the webhook stream in the same script that records its end.
type scripts struct {
	submit, start, renew, finish *redis.Script
}

func newScripts() scripts {
	return scripts{submit: redis.NewScript(submitScript), start: redis.NewScript(startScript),
		renew: redis.NewScript(renewScript), finish: redis.NewScript(finishScript)}
}

// submitScript records a run and queues its id, unless the id exists and
// has not failed: a failed run is queued again, with its events cleared.
// KEYS: the run's hash, the queue, the run's events. ARGV: id, owner, spec,
// created (Unix ms), queue wait (ms). Returns 1 when queued, 0 when the
// owner's run exists, -1 when another owner's does.
const submitScript = `
local h = redis.call('HMGET', KEYS[1], 'owner', 'status')
if h[1] then
	if h[1] ~= ARGV[2] then return -1 end
	if h[2] ~= 'failed' then return 0 end
	redis.call('DEL', KEYS[1], KEYS[3])
end
redis.call('HSET', KEYS[1], 'owner', ARGV[2], 'spec', ARGV[3], 'status', 'queued', 'attempts', 0, 'created', ARGV[4], 'queue_wait', ARGV[5])
redis.call('XADD', KEYS[2], '*', 'run', ARGV[1])
return 1
`

// startScript hands a delivered run to a worker, recording the worker's
// turn timeout and claim (ms) in the run for its clients. ARGV: delivery
// id, worker, now (Unix ms), most attempts, seconds to keep a finished
// run, turn timeout (ms), claim (ms), run id.
// Returns {'run', spec, attempt}; {'finished'} for a run finished by an
// earlier attempt or expired, whose delivery it acknowledges; {'failed',
// why} for a run out of attempts, which it finishes as failed.
const startScript = `
local function drop()
	redis.call('XACK', KEYS[2], 'workers', ARGV[1])
	redis.call('XDEL', KEYS[2], ARGV[1])
end
local h = redis.call('HMGET', KEYS[1], 'status', 'spec', 'attempts')
if not h[1] or h[1] == 'done' or h[1] == 'failed' or h[1] == 'interrupted' then
	drop()
	return {'finished'}
end
local n = tonumber(h[3]) + 1
if n > tonumber(ARGV[4]) then
	local why = 'no worker finished the run in ' .. h[3] .. ' attempts: each stopped or died mid-turn'
	redis.call('HSET', KEYS[1], 'status', 'failed', 'error', why, 'finished', ARGV[3])
	local ok, spec = pcall(cjson.decode, h[2])
	if ok and type(spec) == 'table' and type(spec.webhook) == 'string' and spec.webhook ~= '' then
		redis.call('XADD', KEYS[4], '*', 'run', ARGV[8])
	end
	redis.call('XADD', KEYS[3], '*', 'kind', 'error', 'data', cjson.encode({error = why}))
	redis.call('EXPIRE', KEYS[1], ARGV[5])
	redis.call('EXPIRE', KEYS[3], ARGV[5])
	drop()
	return {'failed', why}
end
redis.call('HSET', KEYS[1], 'status', 'running', 'attempts', n, 'worker', ARGV[2], 'started', ARGV[3],
	'turn_timeout', ARGV[6], 'claim', ARGV[7])
redis.call('XADD', KEYS[3], '*', 'kind', 'started', 'data', string.format('{"attempt":%d}', n))
return {'run', h[2], n}
`

// renewScript resets the idle time of a delivery its worker still holds,
// so that no other worker claims it. KEYS: the queue stream. ARGV:
// delivery id, worker. Returns 0 when another worker has taken it.
const renewScript = `
local p = redis.call('XPENDING', KEYS[1], 'workers', ARGV[1], ARGV[1], 1, ARGV[2])
if #p == 0 then return 0 end
redis.call('XCLAIM', KEYS[1], 'workers', ARGV[2], 0, ARGV[1], 'JUSTID')
return 1
`

// finishScript records a run's end unless an earlier attempt recorded
// one, adds its last event, and acknowledges the delivery. ARGV: delivery
// id, status, result, error, now (Unix ms), seconds to keep, event kind,
// event data, run id, interrupt ("" unless interrupted). Returns 1 when
// recorded, 0 when the run had ended before.
const finishScript = `
redis.call('XACK', KEYS[2], 'workers', ARGV[1])
redis.call('XDEL', KEYS[2], ARGV[1])
local st = redis.call('HGET', KEYS[1], 'status')
if not st or st == 'done' or st == 'failed' or st == 'interrupted' then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'result', ARGV[3], 'error', ARGV[4], 'finished', ARGV[5], 'interrupt', ARGV[10])
local ok, spec = pcall(cjson.decode, redis.call('HGET', KEYS[1], 'spec'))
if ok and type(spec) == 'table' and type(spec.webhook) == 'string' and spec.webhook ~= '' then
	redis.call('XADD', KEYS[4], '*', 'run', ARGV[9])
end
redis.call('XADD', KEYS[3], '*', 'kind', ARGV[7], 'data', ARGV[8])
redis.call('EXPIRE', KEYS[1], ARGV[6])
redis.call('EXPIRE', KEYS[3], ARGV[6])
return 1
`
