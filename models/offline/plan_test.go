package offline

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWithoutFrame(t *testing.T) {
	for _, tc := range []struct{ request, want string }{
		{"How does the gear loft in the Alpine Explorer Tent work?", "gear loft alpine explorer tent"},
		{"How does preset configuration work in Jest?", "preset configuration jest"},
		{"What does hit policy FIRST mean?", "hit policy first"},
		{"Как работает синхронизация заметок?", "синхронизация заметок"},
		{"Что означает этот статус?", "статус"},
		{"Что работает без сети?", "работает сети"},
		{"Does etcd work in cross-region deployments?", "etcd work cross region deployments"},
		{"How do you work out the minimum payment?", "work minimum payment"},
		{"How does it work?", "work"},
		{"Where do I work on drafts?", "work drafts"},
	} {
		t.Run(tc.request, func(t *testing.T) {
			assert.Equal(t, tc.want, strings.Join(withoutFrame(tc.request, contentWords(tc.request)), " "))
		})
	}
}
