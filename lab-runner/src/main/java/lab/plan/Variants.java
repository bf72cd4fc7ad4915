package lab.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import lab.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * The variants one run knows: the lab's ({@link Variant#ALL}) and the arms of a service of the user's own it measures
 * ({@code --service}), named {@code <service>-<arm>}, with no port of their own. Part of the plan, passed to what needs
 * it; {@link #LAB} for a run of the lab's variants only.
 *
 * @param own the arms of the user's service, in the order its file names them; empty for the lab's own variants
 */
public record Variants(List<Variant> own) {

	/** The lab's variants, no service of the user's own. */
	public static final Variants LAB = new Variants(List.of());

	public Variants {
		own = List.copyOf(own);
	}

	/** The variants a run's manifest.json names: its {@code ownService.file}'s arms, if it measured one. */
	public static Variants ofManifest(JsonNode manifest) {
		JsonNode file = manifest.path("ownService").path("file");
		return file.isMissingNode() || file.isNull() ? LAB : new Variants(Json.MAPPER.treeToValue(file, OwnService.class).variants());
	}

	/** Whether {@code name} is an arm of a service of the user's own, not one of the lab's variants. */
	public boolean isOwn(String name) {
		return this.own.stream().anyMatch(v -> v.name().equals(name));
	}

	/** The lab's variants and the arms, in that order. */
	public List<Variant> known() {
		List<Variant> all = new ArrayList<>(Variant.ALL);
		all.addAll(this.own);
		return all;
	}

	public List<String> names() {
		return known().stream().map(Variant::name).toList();
	}

	/**
	 * The model of a variant, by module name or by label ({@code <module>.<tuning>}, {@code <module>.jdk21},
	 * {@code <module>.<tuning>-jdk25}, {@code <module>.tuned-work40}, {@code <module>.aot-trained}: its tuning, JDK, work
	 * and AOT cache named, in the order {@link Arm#name()} joins them).
	 */
	public String modelOf(String label) {
		String module = Variant.moduleOf(label);
		String model = known().stream().filter(v -> v.name().equals(module)).map(Variant::model).findFirst().orElse("");
		if (module.equals(label)) {
			return model;
		}
		String rest = label.substring(module.length() + 1);
		List<String> notes = new ArrayList<>();
		if (rest.equals("aa") || rest.endsWith("-aa")) {
			notes.add("A/A twin (the same variant entered twice)");
			rest = rest.substring(0, Math.max(0, rest.length() - 3));
		}
		Matcher aot = Pattern.compile("(?:^|-)aot-([a-z]+)$").matcher(rest);
		if (aot.find()) {
			notes.add(0, Aot.ids().contains(aot.group(1)) ? Aot.of(aot.group(1)).description() : "AOT cache " + aot.group(1));
			rest = rest.substring(0, aot.start());
		}
		Matcher work = Pattern.compile("(?:^|-)work(\\d+)$").matcher(rest);
		if (work.find()) {
			notes.add(0, "work " + work.group(1));
			rest = rest.substring(0, work.start());
		}
		Matcher jdk = Pattern.compile("(?:^|-)jdk(\\d+)$").matcher(rest);
		if (jdk.find()) {
			notes.add(0, "JDK " + jdk.group(1));
			rest = rest.substring(0, jdk.start());
		}
		if (!rest.isEmpty()) {
			notes.add(0, "tuning " + rest);
		}
		return model + (notes.isEmpty() ? "" : "; " + String.join("; ", notes));
	}

}
