// Chart marks: the pieces the charts compose (axes, grid, lines, steps, bands, bars,
// legends). Each is a pure SVG component or path function; scales stay in the charts.
export { GridLines, XAxis, YAxis, type AxisTick } from './Axis';
export { BarPatterns, GroupedBars, PatternDef, barFill, patternKind, type PatternKind, type PlacedGroup } from './Bars';
export { Legend, legendPositions, lineSwatch, patternSwatch, truncate, type LegendItem } from './Legend';
export { BandMark, LineMark, Marker } from './Line';
export { bandPath, cdfPath, linePath } from './paths';
export { AXIS, FONT, GRID, TEXT, r2 } from './style';
