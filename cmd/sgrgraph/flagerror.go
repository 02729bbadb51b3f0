package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
)

// pflagValueError is how pflag reports a flag value it cannot parse:
// `invalid argument "abc" for "--concurrency" flag: strconv.ParseInt: …`.
var pflagValueError = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?(--[\w-]+)" flag: (.*)$`)

// flagError says a flag value's fault in the command's own words, as the
// range checks do ("--concurrency: 0 is outside 1..64"), rather than in
// the parser's ("strconv.ParseInt: parsing \"abc\": invalid syntax").
func flagError(_ *cobra.Command, err error) error {
	m := pflagValueError.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	value, flag, cause := m[1], m[2], m[3]
	switch {
	case strings.Contains(cause, "ParseInt"), strings.Contains(cause, "ParseUint"):
		if strings.Contains(cause, "value out of range") {
			return fmt.Errorf("%s: %s is too large a number", flag, value)
		}
		return fmt.Errorf("%s: %q is not a whole number", flag, value)
	case strings.Contains(cause, "ParseFloat"):
		return fmt.Errorf("%s: %q is not a number", flag, value)
	case strings.Contains(cause, "ParseBool"):
		return fmt.Errorf("%s: %q is not true or false", flag, value)
	case strings.HasPrefix(cause, "time: "):
		return fmt.Errorf("%s: %q is not a duration such as 90s, 30m or 24h", flag, value)
	}
	return err
}
