// Package docs is sgrgraph's documentation, embedded in the binary: it is
// the default knowledge base, so `sgrgraph ask` answers questions about
// sgrgraph from any directory.
package docs

import "embed"

// FS holds every article, at the root.
//
//go:embed *.md
var FS embed.FS
