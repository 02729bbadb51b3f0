package sgrtest

import (
	"os"
	"path/filepath"
	"testing"
)

// ContactArticle is a knowledge-base article holding personal data, an
// e-mail address and a phone number: what masking hides.
const ContactArticle = `---
title: Contacting support
kb_id: contact
tags: [support]
---
# Contacting support

Write to support@example.com or call +1 415 555 0100 for help with refunds.
`

// ContactKB is a knowledge-base folder of the test's holding ContactArticle
// alone, as contact.md.
func ContactKB(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "contact.md"), []byte(ContactArticle), 0o600); err != nil {
		tb.Fatalf("sgrtest: write the contact article: %v", err)
	}
	return dir
}
