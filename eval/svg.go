package eval

import (
	"fmt"
	"html"
	"strings"
)

// The plot's size in SVG units: a square of side plotSide with room for
// the axes' labels around it.
const (
	plotSide   = 240.0
	plotMargin = 44.0
)

// CurveSVG draws a curve over the unit square as a self-contained SVG
// image: title above, axis names below and beside, and for a ROC curve
// the diagonal a random ranking would follow.
func CurveSVG(title, xName, yName string, pts []Point, diagonal bool) string {
	size := plotSide + 2*plotMargin
	x := func(v float64) float64 { return plotMargin + v*plotSide }
	y := func(v float64) float64 { return plotMargin + (1-v)*plotSide }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="11">`, size, size, size, size)
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(title))
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#fff" stroke="#333"/>`, x(0), y(1), plotSide, plotSide)
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, x(t), y(0), x(t), y(1))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, x(0), y(t), x(1), y(t))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%g</text>`, x(t), y(0)+14, t)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%g</text>`, x(0)-4, y(t)+4, t)
	}
	if diagonal {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999" stroke-dasharray="4 3"/>`, x(0), y(0), x(1), y(1))
	}
	if len(pts) > 0 {
		coords := make([]string, len(pts))
		for i, p := range pts {
			coords[i] = fmt.Sprintf("%.1f,%.1f", x(p.X), y(p.Y))
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="#1f5fbf" stroke-width="2"/>`, strings.Join(coords, " "))
		for _, c := range coords {
			xy := strings.Split(c, ",")
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="2.5" fill="#1f5fbf"/>`, xy[0], xy[1])
		}
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-weight="bold">%s</text>`, size/2, plotMargin-14, html.EscapeString(title))
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, size/2, size-10, html.EscapeString(xName))
	fmt.Fprintf(&b, `<text x="12" y="%.1f" text-anchor="middle" transform="rotate(-90 12 %.1f)">%s</text>`, size/2, size/2, html.EscapeString(yName))
	b.WriteString(`</svg>`)
	return b.String()
}

// Plots are the report's SVG images by file name: a ROC and a
// precision-recall curve for each set with guard items of both classes,
// and the spam score's ROC curve for each with routing items of both.
func (r Report) Plots() map[string]string {
	out := map[string]string{}
	for _, s := range r.Sets {
		if r := s.Routing; r != nil && r.SpamCurve {
			out[s.Name+"-spam-roc.svg"] = CurveSVG(fmt.Sprintf("%s: spam score ROC, AUC %.3f", s.Name, r.SpamAUC), "false-positive rate", "true-positive rate", r.SpamROC, true)
		}
		if g := s.Guard; g != nil && g.Curves {
			out[s.Name+"-roc.svg"] = CurveSVG(fmt.Sprintf("%s: ROC, AUC %.3f", s.Name, g.ROCAUC), "false-positive rate", "true-positive rate", g.ROC, true)
			out[s.Name+"-pr.svg"] = CurveSVG(fmt.Sprintf("%s: precision-recall, AP %.3f", s.Name, g.AP), "recall", "precision", g.PR, false)
		}
	}
	return out
}
