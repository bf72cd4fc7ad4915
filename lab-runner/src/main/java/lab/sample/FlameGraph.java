package lab.sample;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A flame graph as a self-contained SVG (no script: each frame's name and share show as its tooltip) from collapsed
 * stacks ("root;...;leaf count" lines, as {@link SteadyRecording} writes them). Roots at the bottom, each frame as
 * wide as the share of samples whose stack passes through it, children sorted by name as flamegraph.pl does.
 */
final class FlameGraph {

	private static final int WIDTH = 1200;

	private static final int ROW = 16;

	/** Frames narrower than this (in pixels) are left out: nobody can read them. */
	private static final double MIN_WIDTH = 0.5;

	private FlameGraph() {
	}

	/** One frame of the merged tree: its samples and its callees by name. */
	private static final class Node {

		long samples;

		final Map<String, Node> children = new TreeMap<>();

	}

	static String svg(List<String> collapsed, String title) {
		Node root = new Node();
		for (String line : collapsed) {
			int space = line.lastIndexOf(' ');
			if (space <= 0) {
				continue;
			}
			long count;
			try {
				count = Long.parseLong(line.substring(space + 1).trim());
			}
			catch (NumberFormatException ex) {
				continue;
			}
			root.samples += count;
			Node node = root;
			for (String frame : line.substring(0, space).split(";")) {
				node = node.children.computeIfAbsent(frame, k -> new Node());
				node.samples += count;
			}
		}
		int depth = depth(root) + 1;
		int height = (depth + 2) * ROW + 30;
		StringBuilder svg = new StringBuilder();
		svg.append(String.format(Locale.ROOT,
				"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"monospace\" font-size=\"11\">%n", WIDTH, height));
		svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"#fdfdf6\"/>%n", WIDTH, height));
		svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" text-anchor=\"middle\" font-size=\"14\">%s (%,d samples)</text>%n",
				WIDTH / 2, escape(title), root.samples));
		if (root.samples > 0) {
			List<String> rects = new ArrayList<>();
			draw(root, "all", 0, WIDTH, height - ROW - 4, root.samples, rects);
			rects.forEach(svg::append);
		}
		svg.append("</svg>\n");
		return svg.toString();
	}

	private static int depth(Node node) {
		int deepest = 0;
		for (Node child : node.children.values()) {
			deepest = Math.max(deepest, 1 + depth(child));
		}
		return deepest;
	}

	private static void draw(Node node, String name, double x, double width, int y, long total, List<String> out) {
		if (width < MIN_WIDTH) {
			return;
		}
		String tip = String.format(Locale.ROOT, "%s (%,d samples, %.1f%%)", name, node.samples, 100.0 * node.samples / total);
		int hue = (name.hashCode() & 0x7fffffff) % 55;
		out.add(String.format(Locale.ROOT,
				"<g><title>%s</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"hsl(%d,85%%,60%%)\" stroke=\"#fdfdf6\" stroke-width=\"0.5\"/>",
				escape(tip), x, y, width, ROW - 1, hue));
		int chars = (int) ((width - 4) / 6.6);
		if (chars >= 3) {
			String label = (name.length() <= chars) ? name : name.substring(0, Math.max(1, chars - 2)) + "..";
			out.add(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">%s</text>", x + 2, y + ROW - 4, escape(label)));
		}
		out.add("</g>\n");
		double childX = x;
		for (Map.Entry<String, Node> child : node.children.entrySet()) {
			double childWidth = width * child.getValue().samples / node.samples;
			draw(child.getValue(), child.getKey(), childX, childWidth, y - ROW, total, out);
			childX += childWidth;
		}
	}

	private static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
	}

}
