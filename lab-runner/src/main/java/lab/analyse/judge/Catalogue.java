package lab.analyse.judge;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What the analysis computes and judges a level by: its figures ({@link Figures#ALL}) and the rules that compare one
 * figure with a threshold ({@link FigureRule}, the ones {@link Rule} declares). {@link #STANDARD} is the lab's; a
 * catalogue with one more figure or rule is {@link #with}.
 */
public record Catalogue(List<Figure> figures, List<FigureRule> rules) {

	public static final Catalogue STANDARD = new Catalogue(Figures.ALL,
			Arrays.stream(Rule.values()).map(Rule::figureRule).flatMap(Optional::stream).toList());

	public Catalogue {
		figures = List.copyOf(figures);
		rules = List.copyOf(rules);
		for (FigureRule rule : rules) {
			if (!figures.contains(rule.figure())) {
				throw new IllegalArgumentException(rule.name() + " reads " + rule.figure() + ", which is not a declared figure");
			}
		}
	}

	/** This catalogue with one more figure, computed after the others (it may read them). */
	public Catalogue with(Figure figure) {
		if (this.figures.stream().anyMatch(f -> f.field().equals(figure.field()))) {
			throw new IllegalArgumentException("a figure named " + figure.field() + " is declared already");
		}
		List<Figure> more = new ArrayList<>(this.figures);
		more.add(figure);
		return new Catalogue(more, this.rules);
	}

	/** This catalogue with one more rule, judged after the others. */
	public Catalogue with(FigureRule rule) {
		List<FigureRule> more = new ArrayList<>(this.rules);
		more.add(rule);
		return new Catalogue(this.figures, more);
	}

	/** The rules judged on {@code scope}, with {@code effect}, in declaration order. */
	public List<FigureRule> rules(FigureRule.Scope scope) {
		return this.rules.stream().filter(r -> r.scope() == scope).toList();
	}

}
