package review

import (
	"fmt"
	"slices"
)

// The plan graph is drawn on the server as inline SVG, top to bottom: a
// step sits one layer below the deepest step it depends on, steps of a
// layer side by side in the order shown. The page then needs no script
// and no font but the reader's own.

const (
	nodeW, nodeH = 168, 46
	gapX, gapY   = 20, 34
	pad          = 12
	labelRunes   = 20
)

// graphView is a laid-out plan graph.
type graphView struct {
	Width, Height int
	Nodes         []graphNode
	Edges         []graphEdge
}

type graphNode struct {
	X, Y         int
	TextX        int
	Title, Label string
	// Sub is the step's id, under its action.
	Sub   string
	Pos   int
	Class string
}

type graphEdge struct {
	Path  string
	Class string
}

// layout lays out the steps shown (in their order on the page): each
// entry's deps are the positions, in steps, of the steps it depends on.
func layout(steps []stepView) graphView {
	index := make(map[string]int, len(steps))
	for i, s := range steps {
		index[s.ID] = i
	}
	layer := make([]int, len(steps))
	// Longest path from the roots; at most len(steps) passes, so that a
	// cycle (which validation refuses anyway) cannot loop.
	for range len(steps) {
		changed := false
		for i, s := range steps {
			for _, dep := range s.DependsOn {
				if j, ok := index[dep]; ok && j != i && layer[j]+1 > layer[i] && layer[j]+1 <= len(steps) {
					layer[i], changed = layer[j]+1, true
				}
			}
		}
		if !changed {
			break
		}
	}
	depth := 0
	for _, l := range layer {
		depth = max(depth, l+1)
	}
	rows := make([][]int, depth)
	for i, l := range layer {
		rows[l] = append(rows[l], i)
	}
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	g := graphView{
		Width:  max(1, cols)*(nodeW+gapX) - gapX + 2*pad,
		Height: max(1, depth)*(nodeH+gapY) - gapY + 2*pad,
	}
	x := make([]int, len(steps))
	y := make([]int, len(steps))
	for l, r := range rows {
		// Each row is centred.
		offset := (g.Width - 2*pad - (len(r)*(nodeW+gapX) - gapX)) / 2
		for k, i := range r {
			x[i] = pad + offset + k*(nodeW+gapX)
			y[i] = pad + l*(nodeH+gapY)
		}
	}
	for i, s := range steps {
		class := "node"
		switch {
		case s.Removed:
			class += " removed"
		case s.Failing:
			class += " failing"
		case s.Skipped:
			class += " skipped"
		}
		if s.Inserted {
			class += " inserted"
		}
		g.Nodes = append(g.Nodes, graphNode{
			X: x[i], Y: y[i], TextX: x[i] + nodeW/2,
			Title: fmt.Sprintf("%d. %s (%s)", s.Pos, s.ID, s.Capability),
			Label: shorten(s.Capability, labelRunes),
			Sub:   shorten(s.ID, labelRunes+4),
			Pos:   s.Pos,
			Class: class,
		})
	}
	for i, s := range steps {
		deps := slices.Clone(s.DependsOn)
		slices.Sort(deps)
		for _, dep := range slices.Compact(deps) {
			j, ok := index[dep]
			if !ok || j == i {
				continue
			}
			x1, y1 := x[j]+nodeW/2, y[j]+nodeH
			x2, y2 := x[i]+nodeW/2, y[i]-4
			mid := (y2 - y1) / 2
			class := "edge"
			if s.Removed || steps[j].Removed {
				class += " removed"
			}
			g.Edges = append(g.Edges, graphEdge{
				Path:  fmt.Sprintf("M%d %d C%d %d %d %d %d %d", x1, y1, x1, y1+mid, x2, y2-mid, x2, y2),
				Class: class,
			})
		}
	}
	return g
}

// shorten cuts s to n runes, ending in an ellipsis when it was longer.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
