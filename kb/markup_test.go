package kb

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSiteMarkupIsNotText(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"hugo shortcodes around text", "{{< note >}}\nBack up first.\n{{< /note >}}\n", "Back up first.\n"},
		{"hugo shortcodes in a line", "{{% tab \"Linux\" %}}Run the installer.{{% /tab %}}\n", "Run the installer.\n"},
		{"liquid tags", "{% include note.html %}\nKeep the receipt.\n{% endcapture %}\n", "Keep the receipt.\n"},
		{"a shortcode in a fence is code", "```md\n{{< audio src=a.mp3 >}}\n```\n", "```md\n{{< audio src=a.mp3 >}}\n```\n"},
		{"a shortcode in backticks is code", "Write `{{< note >}}` to open a note.\n", "Write `{{< note >}}` to open a note.\n"},
		{"a template action is text", "The title is {{ .Title }}.\n", "The title is {{ .Title }}.\n"},
		{"docusaurus admonition with a title", ":::tip[Before you start]\nBack up.\n:::\n", "Before you start\nBack up.\n"},
		{"vitepress admonition", "::: warning Breaking change\nThe flag is gone.\n:::\n", "Breaking change\nThe flag is gone.\n"},
		{"an admonition without a title", ":::note\nSaved daily.\n:::\n", "Saved daily.\n"},
		{"mkdocs admonition", "!!! note \"Mind the cache\"\n    The cache is kept.\n\n    Twice a day.\nAfter it.\n",
			"Mind the cache\nThe cache is kept.\n\nTwice a day.\nAfter it.\n"},
		{"mkdocs collapsible, code in its body", "???+ example\n    ```sh\n    make\n    ```\nDone.\n", "```sh\nmake\n```\nDone.\n"},
		{"a pymdown block", "/// note | Mind the cache\nThe cache is kept.\n///\n", "Mind the cache\nThe cache is kept.\n"},
		{"material content tabs", "=== \"Linux\"\n\n    apt install keel\n\n=== \"macOS\"\n    brew install keel\nDone.\n",
			"Linux\n\napt install keel\n\nmacOS\nbrew install keel\nDone.\n"},
		{"a heading underline is no tab", "Setup\n===\n", "Setup\n===\n"},
		{"mdx imports and exports", "import Tabs from '@theme/Tabs';\nimport '@site/x.css';\nexport const year = 2024;\n# Install\n", "# Install\n"},
		{"tabs show their labels", "<Tabs>\n<TabItem value=\"mac\" label=\"macOS\">\nbrew install x\n</TabItem>\n</Tabs>\n", "macOS\nbrew install x\n"},
		{"a tab by its value", "<Tabs items={[\"Desktop\", \"Mobile\"]}>\n<Tab value=\"Mobile\">\nTap Settings.\n</Tab>\n</Tabs>\n", "Mobile\nTap Settings.\n"},
		{"a callout", "<Callout type=\"info\">\nKeep it short.\n</Callout>\n", "Keep it short.\n"},
		{"a self-closing component", "<DocCardList />\nSee the pages.\n", "See the pages.\n"},
		{"a placeholder is text", "rclone ls\n<REMOTE>\n", "rclone ls\n<REMOTE>\n"},
		{"html is left to the page", "<details>\n<summary>More</summary>\n</details>\n", "<details>\n<summary>More</summary>\n</details>\n"},
		{"link definitions", "See the [issue][sync].\n\n[sync]: https://example.com/issues/572\n[docs]: /docs \"The docs\"\n", "See the [issue][sync].\n\n"},
		{"a footnote is shown", "[^1]: A muted peer can still read.\n", "[^1]: A muted peer can still read.\n"},
		{"a bracketed line is text", "[Optional] Set the port.\n", "[Optional] Set the port.\n"},
		{"a fence in a list item is code", "1. Write the page:\n\n    ```jsx\n    <Tabs groupId=\"os\">\n    {% include note.html %}\n    ```\n",
			"1. Write the page:\n\n    ```jsx\n    <Tabs groupId=\"os\">\n    {% include note.html %}\n    ```\n"},
		{"an indented code block is code", "Add to the project:\n\n    <PackageReference Include=\"Serilog\" />\n", "Add to the project:\n\n    <PackageReference Include=\"Serilog\" />\n"},
		{"a paragraph's next line is text", "In a module you can\nexport function declarations and classes.\nThe log says:\n[main]: ready\n",
			"In a module you can\nexport function declarations and classes.\nThe log says:\n[main]: ready\n"},
		{"a highlight shortcode is a code block", "{% highlight js %}\nimport React from 'react';\n<App />\n{% endhighlight %}\n{{< highlight go >}}\nx := {{ .Title }}\n{{< /highlight >}}\n",
			"```js\nimport React from 'react';\n<App />\n```\n```go\nx := {{ .Title }}\n```\n"},
		{"raw text is shown as written", "{% raw %}\nWrite {{ page.title }} or {% include x.html %}.\n{% endraw %}\n", "Write {{ page.title }} or {% include x.html %}.\n"},
		{"a closing shortcode alone opens nothing", "{% endhighlight %}\n{{< note >}}\nText.\n", "Text.\n"},
		{"a tab's header", "{{< tab header=\"macOS\" >}}\nRun brew.\n{{< /tab >}}\n", "macOS\nRun brew.\n"},
		{"a sentence with exclamation marks", "!!! Do not delete this folder\n", "!!! Do not delete this folder\n"},
		{"a colon after the fence", "::: Warning: do not run as root\n:::\n", "Warning: do not run as root\n"},
		{"a pandoc div", "::: {.warning}\nMind it.\n:::\n", "Mind it.\n"},
		{"mkdocstrings shows the object, not its options", "::: httpx.AsyncClient\n    :docstring:\n    :members: headers cookies\n\nUse it in async code.\n",
			"httpx.AsyncClient\n\nUse it in async code.\n"},
		{"a directive's yaml options", "::: mypkg.api.Client\n    options:\n      show_source: false\nNext.\n", "mypkg.api.Client\nNext.\n"},
		{"an admonition's type has no dot: its body stays", "::: tip\n    Indented in the tip.\n:::\n", "    Indented in the tip.\n"},
		{"prose that starts like mdx", "import the key from the old device\nexport the list first\n", "import the key from the old device\nexport the list first\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Doc{Body: tc.in}.Text())
		})
	}
}

// A documentation site's components and admonitions are neither found nor
// quoted: a question that says "info" does not find the callouts, and the
// article found for what a tab says is quoted without its tags.
func TestSiteMarkupIsNeitherSearchedNorQuoted(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"install.mdx":     "---\ntitle: Install\n---\nimport Tabs from '@theme/Tabs';\n\n# Install\n\n<Tabs>\n<TabItem value=\"mac\" label=\"macOS\">\n\nRun brew install keel.\n\n</TabItem>\n</Tabs>\n",
		"backup.md":       "# Backups\n\n<Callout type=\"info\">\nBackups run nightly.\n</Callout>\n",
		"limits.markdown": "# Limits\n\n{{< note >}}\nUploads stop at 2 GB.\n{{< /note >}}\n",
	})
	docs, errs := LoadDir(dir)
	require.Empty(t, errs)
	require.Len(t, docs, 3, "an .mdx and a .markdown file are articles")
	idx, err := Open(filepath.Join(t.TempDir(), "cache"), DefaultOptions())
	require.NoError(t, err)
	t.Cleanup(func() { idx.Close() })
	_, err = idx.Sync(docs)
	require.NoError(t, err)

	for _, q := range []string{"callout info", "tabitem value", "note"} {
		res, err := idx.Search(q, 5)
		require.NoError(t, err)
		assert.Empty(t, res.Articles, "%q is markup, not text", q)
	}
	res, err := idx.Search("brew macOS", 5)
	require.NoError(t, err)
	require.NotEmpty(t, res.Articles)
	assert.Equal(t, "install", res.Articles[0].KBID)
	text := res.Articles[0].Chunks[0].Text
	assert.Contains(t, text, "macOS")
	assert.Contains(t, text, "Run brew install keel.")
	assert.False(t, strings.ContainsAny(text, "<>{}"), "no tag is quoted: %q", text)
}
