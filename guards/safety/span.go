package safety

import "regexp/syntax"

// A trigger holds no wildcard that crosses a space, so a match spans a
// bounded number of words: tried on those words alone instead of the rest
// of the message, the anchored pattern finds the same match, and Go runs
// it with its backtracker, which is much faster than its NFA on a short
// input.

// spanSpaces is the most spaces a match of expr can hold, or -1 when there
// is no bound or the pattern asserts something about the text around it.
func spanSpaces(expr string) int {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return -1
	}
	return spaces(re)
}

func spaces(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return 0
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			if r == ' ' {
				n++
			}
		}
		return n
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= ' ' && ' ' <= re.Rune[i+1] {
				return 1
			}
		}
		return 0
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpQuest:
		return spaces(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		if spaces(re.Sub[0]) == 0 {
			return 0
		}
	case syntax.OpRepeat:
		n := spaces(re.Sub[0])
		switch {
		case n == 0:
			return 0
		case n > 0 && re.Max >= 0:
			return n * re.Max
		}
	case syntax.OpConcat:
		total := 0
		for _, sub := range re.Sub {
			n := spaces(sub)
			if n < 0 {
				return -1
			}
			total += n
		}
		return total
	case syntax.OpAlternate:
		most := 0
		for _, sub := range re.Sub {
			n := spaces(sub)
			if n < 0 {
				return -1
			}
			most = max(most, n)
		}
		return most
	}
	return -1
}

// window is the text from at that holds every match of a pattern with at
// most n spaces beginning there: up to the (n+1)th space, the one at at
// counting first.
func window(norm string, at, n int) string {
	if n < 0 {
		return norm[at:]
	}
	seen := 0
	for i := at; i < len(norm); i++ {
		if norm[i] == ' ' {
			if seen == n {
				return norm[at:i]
			}
			seen++
		}
	}
	return norm[at:]
}
