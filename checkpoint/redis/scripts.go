package redis

import "github.com/redis/go-redis/v9"

// Every script takes KEYS = the threads set, the thread's order set, the
// prefix of its checkpoint keys (see keys), and ARGV[1] = the thread. The
// checkpoint keys are built in the scripts because a Put learns its ID there.
type scripts struct {
	put, latest, remove, deleteThread *redis.Script
	renewLock, freeLock               *redis.Script
}

func newScripts() scripts {
	return scripts{
		put:          redis.NewScript(putScript),
		latest:       redis.NewScript(latestScript),
		remove:       redis.NewScript(removeScript),
		deleteThread: redis.NewScript(deleteScript),
		renewLock:    redis.NewScript(renewLockScript),
		freeLock:     redis.NewScript(freeLockScript),
	}
}

// putScript numbers the checkpoint after the thread's newest, assigns its ID
// unless given, and stores it. ARGV: thread, id or "", ID format, ID suffix,
// header, state, time in Unix nanoseconds. Returns the ID.
const putScript = `
local seq = 1
local top = redis.call('ZREVRANGE', KEYS[2], 0, 0, 'WITHSCORES')
if #top > 0 then seq = tonumber(top[2]) + 1 end
local id = ARGV[2]
if id == '' then
	id = string.format(ARGV[3], seq, ARGV[4])
elseif redis.call('ZSCORE', KEYS[2], id) then
	return redis.error_reply('SGRGRAPH_EXISTS')
end
redis.call('HSET', KEYS[3] .. id, 'header', ARGV[5], 'state', ARGV[6], 'time', ARGV[7])
redis.call('ZADD', KEYS[2], seq, id)
redis.call('SADD', KEYS[1], ARGV[1])
return id
`

// latestScript returns {id, header, state} of the thread's newest
// checkpoint, or nil.
const latestScript = `
local top = redis.call('ZREVRANGE', KEYS[2], 0, 0)
if #top == 0 then return false end
local v = redis.call('HMGET', KEYS[3] .. top[1], 'header', 'state')
if not v[1] then return false end
return {top[1], v[1], v[2]}
`

// removeScript removes the checkpoints ARGV[2:] and the thread from the set
// once it has none. Returns how many it removed.
const removeScript = `
local n = 0
for i = 2, #ARGV do
	if redis.call('ZREM', KEYS[2], ARGV[i]) == 1 then
		redis.call('DEL', KEYS[3] .. ARGV[i])
		n = n + 1
	end
end
if redis.call('ZCARD', KEYS[2]) == 0 then redis.call('SREM', KEYS[1], ARGV[1]) end
return n
`

// deleteScript removes the thread and all its checkpoints.
const deleteScript = `
local ids = redis.call('ZRANGE', KEYS[2], 0, -1)
for _, id in ipairs(ids) do redis.call('DEL', KEYS[3] .. id) end
redis.call('DEL', KEYS[2])
redis.call('SREM', KEYS[1], ARGV[1])
return #ids
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
