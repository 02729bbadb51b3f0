package redis

import "github.com/redis/go-redis/v9"

// Every script takes KEYS = the threads set, the thread's order set, the
// prefix of its checkpoint keys, its pieces and its piece counts (see keys),
// and ARGV[1] = the thread. The checkpoint keys are built in the scripts
// because a Put learns its ID there.
type scripts struct {
	put, latest, get, remove, deleteThread, stored *redis.Script
	renewLock, freeLock                            *redis.Script
}

func newScripts() scripts {
	return scripts{
		put:          redis.NewScript(putScript),
		latest:       redis.NewScript(latestScript),
		get:          redis.NewScript(getScript),
		remove:       redis.NewScript(removeScript),
		deleteThread: redis.NewScript(deleteScript),
		stored:       redis.NewScript(storedScript),
		renewLock:    redis.NewScript(renewLockScript),
		freeLock:     redis.NewScript(freeLockScript),
	}
}

// putScript numbers the checkpoint after the thread's newest, assigns its ID
// unless given, and stores it. ARGV: thread, id or "", ID format, ID suffix,
// header, state, time in Unix nanoseconds, the state's pieces ("h1,h2,...";
// "": the state is whole in ARGV[6]), then a hash and the data of each
// piece sent. A listed piece neither sent nor kept is an error before
// anything is written (SGRGRAPH_MISSING: send them all). Returns the ID.
const putScript = `
local given = {}
for i = 9, #ARGV, 2 do given[ARGV[i]] = ARGV[i + 1] end
local counts, order = {}, {}
for h in string.gmatch(ARGV[8], '[^,]+') do
	if not counts[h] then
		counts[h] = 0
		order[#order + 1] = h
	end
	counts[h] = counts[h] + 1
end
for _, h in ipairs(order) do
	if not given[h] and redis.call('HEXISTS', KEYS[5], h) == 0 then
		return redis.error_reply('SGRGRAPH_MISSING')
	end
end
local seq = 1
local top = redis.call('ZREVRANGE', KEYS[2], 0, 0, 'WITHSCORES')
if #top > 0 then seq = tonumber(top[2]) + 1 end
local id = ARGV[2]
if id == '' then
	id = string.format(ARGV[3], seq, ARGV[4])
elseif redis.call('ZSCORE', KEYS[2], id) then
	return redis.error_reply('SGRGRAPH_EXISTS')
end
for _, h in ipairs(order) do
	if redis.call('HINCRBY', KEYS[5], h, counts[h]) == counts[h] then
		redis.call('HSET', KEYS[4], h, given[h])
	end
end
if ARGV[8] == '' then
	redis.call('HSET', KEYS[3] .. id, 'header', ARGV[5], 'state', ARGV[6], 'time', ARGV[7])
else
	redis.call('HSET', KEYS[3] .. id, 'header', ARGV[5], 'fields', ARGV[8], 'time', ARGV[7])
end
redis.call('ZADD', KEYS[2], seq, id)
redis.call('SADD', KEYS[1], ARGV[1])
return id
`

// readOne is the Lua of a checkpoint read: {id, header, state, fields,
// the data of each listed piece in order} of the checkpoint id, or false.
const readOne = `
local function read(id)
	local v = redis.call('HMGET', KEYS[3] .. id, 'header', 'state', 'fields')
	if not v[1] then return false end
	local out = {id, v[1], v[2] or '', v[3] or ''}
	if v[3] then
		local hs = {}
		for h in string.gmatch(v[3], '[^,]+') do hs[#hs + 1] = h end
		if #hs > 0 then
			local data = redis.call('HMGET', KEYS[4], unpack(hs))
			for i = 1, #hs do out[4 + i] = data[i] or false end
		end
	end
	return out
end
`

// latestScript reads the thread's newest checkpoint (readOne), or nil.
const latestScript = readOne + `
local top = redis.call('ZREVRANGE', KEYS[2], 0, 0)
if #top == 0 then return false end
return read(top[1])
`

// getScript reads the checkpoint ARGV[2] (readOne), or nil.
const getScript = readOne + `
if not redis.call('ZSCORE', KEYS[2], ARGV[2]) then return false end
return read(ARGV[2])
`

// removeScript removes the checkpoints ARGV[2:], frees the pieces no
// checkpoint lists any more, and drops the thread from the set once it has
// none. Returns how many it removed.
const removeScript = `
local n = 0
for i = 2, #ARGV do
	if redis.call('ZREM', KEYS[2], ARGV[i]) == 1 then
		local fields = redis.call('HGET', KEYS[3] .. ARGV[i], 'fields')
		if fields then
			for h in string.gmatch(fields, '[^,]+') do
				if redis.call('HINCRBY', KEYS[5], h, -1) <= 0 then
					redis.call('HDEL', KEYS[5], h)
					redis.call('HDEL', KEYS[4], h)
				end
			end
		end
		redis.call('DEL', KEYS[3] .. ARGV[i])
		n = n + 1
	end
end
if redis.call('ZCARD', KEYS[2]) == 0 then redis.call('SREM', KEYS[1], ARGV[1]) end
return n
`

// deleteScript removes the thread, all its checkpoints and their pieces.
const deleteScript = `
local ids = redis.call('ZRANGE', KEYS[2], 0, -1)
for _, id in ipairs(ids) do redis.call('DEL', KEYS[3] .. id) end
redis.call('DEL', KEYS[2], KEYS[4], KEYS[5])
redis.call('SREM', KEYS[1], ARGV[1])
return #ids
`

// storedScript returns {pieces, bytes} the thread keeps.
const storedScript = `
local n, bytes = 0, 0
for _, h in ipairs(redis.call('HKEYS', KEYS[4])) do
	n = n + 1
	bytes = bytes + redis.call('HSTRLEN', KEYS[4], h)
end
return {n, bytes}
`

// The lease scripts take KEYS = the thread's lock key and ARGV[1] = the
// lease's value; they act only while the key still holds that value, so an
// owner whose lease expired never renews or frees its successor's.

// renewLockScript sets the lease's ttl to ARGV[2] ms; returns 1, or 0 when
// the lease is no longer the caller's.
const renewLockScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`

// freeLockScript deletes the lease (compare and delete).
const freeLockScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`
