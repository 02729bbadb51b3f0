package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAFlagValueErrorNamesTheFlagInPlainWords(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"batch", "--concurrency", "abc"}, `--concurrency: "abc" is not a whole number`},
		{[]string{"batch", "--concurrency", "99999999999999999999"}, `--concurrency: 99999999999999999999 is too large a number`},
		{[]string{"threads", "prune", "--max-age", "1x"}, `--max-age: "1x" is not a duration such as 90s, 30m or 24h`},
		{[]string{"ask", "--json=maybe", "hi"}, `--json: "maybe" is not true or false`},
		{[]string{"ask", "--nosuch", "hi"}, `unknown flag: --nosuch`},
		{[]string{"serve", "--max-turns-per-key", "-1"}, `--max-turns-per-key: -1 is not above 0`},
		{[]string{"serve", "--turn-timeout", "-5s"}, `--turn-timeout: -5s is not above 0`},
		{[]string{"serve", "--allowed-hosts", "chat.lan,http://chat.example.com"}, `--allowed-hosts: "http://chat.example.com" is not a host: give a name or address, with a port or without (chat.example.com, 192.0.2.7:8080)`},
	} {
		_, _, err := run(t, tc.args...)
		assert.EqualError(t, err, tc.want, "%q", tc.args)
	}
}
