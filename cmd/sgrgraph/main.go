// Command sgrgraph runs guarded, schema-guided agent graphs and the tools
// around them: decision tables, the knowledge base and its search.
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := newRootCmd(os.Stdout, os.Stderr).Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "sgrgraph:", err)
		os.Exit(1)
	}
}
