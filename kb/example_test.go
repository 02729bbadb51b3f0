package kb_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sgrgraph/sgrgraph/kb"
)

// A documentation site's folder is a knowledge base as it is: its MDX
// pages are articles, each index page is named after its folder, and
// what is indexed is what the page shows, without the site's markup.
func ExampleLoadDir() {
	dir, err := os.MkdirTemp("", "site")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	pages := map[string]string{
		"index.md":          "# Welcome\n\nStart with the install guide.\n",
		"install/index.mdx": "import Tabs from '@theme/Tabs';\n\n# Install\n\n:::tip[Before you start]\nBack up your data.\n:::\n\n<Tabs>\n<TabItem value=\"mac\" label=\"macOS\">\nRun brew install keel.\n</TabItem>\n</Tabs>\n",
	}
	for name, text := range pages {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			panic(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			panic(err)
		}
	}
	docs, errs := kb.LoadDir(dir)
	if len(errs) > 0 {
		panic(errs)
	}
	for _, d := range docs {
		fmt.Printf("%s (%s):\n%s\n", d.KBID, d.Title, d.Text())
	}
	// Output:
	// index (Welcome):
	// # Welcome
	//
	// Start with the install guide.
	//
	// install (Install):
	//
	// # Install
	//
	// Before you start
	// Back up your data.
	//
	// macOS
	// Run brew install keel.
}
