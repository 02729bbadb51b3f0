package redis

import "github.com/redis/go-redis/v9"

// Every script takes KEYS = the index and the expiry set, and ARGV[1] =
// the prefix of item keys, so that it can name the items it finds.

// purgeLua removes up to limit items whose expiry score is at most nowMS,
// from the hashes and both sets, and returns how many.
const purgeLua = `
local function purge(nowMS, limit)
	local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', nowMS, 'LIMIT', 0, limit)
	for _, m in ipairs(gone) do
		redis.call('DEL', ARGV[1] .. m)
		redis.call('ZREM', KEYS[1], m)
		redis.call('ZREM', KEYS[2], m)
	end
	return #gone
end
`

// purgeScript: ARGV[2] now in ms, ARGV[3] the most to remove.
var purgeScript = redis.NewScript(purgeLua + `return purge(ARGV[2], tonumber(ARGV[3]))`)

// putScript purges up to ARGV[8] expired items, then stores the item.
// ARGV: prefix, member, value, now and expiry in ns (expiry "0": never),
// now and expiry in ms, the purge batch. Times in ns are compared as
// decimal strings: a Lua number loses their last digits. Returns the
// item's created time: the stored one, unless that item had expired.
var putScript = redis.NewScript(purgeLua + `
local function later(a, b) return #a > #b or (#a == #b and a > b) end
purge(ARGV[6], tonumber(ARGV[8]))
local key = ARGV[1] .. ARGV[2]
local created = ARGV[4]
local old = redis.call('HMGET', key, 'c', 'e')
if old[1] and (old[2] == '0' or later(old[2], ARGV[4])) then created = old[1] end
redis.call('HSET', key, 'v', ARGV[3], 'c', created, 'u', ARGV[4], 'e', ARGV[5])
redis.call('ZADD', KEYS[1], 0, ARGV[2])
if ARGV[5] == '0' then
	redis.call('ZREM', KEYS[2], ARGV[2])
	redis.call('PERSIST', key)
else
	redis.call('ZADD', KEYS[2], ARGV[7], ARGV[2])
	redis.call('PEXPIREAT', key, ARGV[7])
end
return created
`)

// deleteScript removes the item ARGV[2] from its hash and both sets.
var deleteScript = redis.NewScript(`
redis.call('DEL', ARGV[1] .. ARGV[2])
redis.call('ZREM', KEYS[1], ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[2])
return 0
`)
