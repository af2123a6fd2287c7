package dev.joinstep.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.util.TimeUtils;

import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/** Answers one request: plan the scenario with Flink's planner and, for "run", execute it. */
final class Harness {
    private final ObjectMapper json;
    private final String flinkVersion;
    private final String minor;

    Harness(ObjectMapper json) throws IOException {
        this.json = json;
        Properties props = new Properties();
        try (InputStream in = Harness.class.getResourceAsStream("/joinstep-harness.properties")) {
            if (in != null) props.load(in);
        }
        this.flinkVersion = props.getProperty("flink.version", "unknown");
        this.minor = props.getProperty("harness.minor", "unknown");
    }

    ObjectNode handle(JsonNode request) {
        ObjectNode response = json.createObjectNode();
        JsonNode id = request.get("id");
        response.set("id", id == null ? json.nullNode() : id);
        String op = request.path("op").asText("run");
        JsonNode scenario = request.path("scenario");
        RunContext.reset();

        Map<String, String> config = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = scenario.path("config").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            config.put(e.getKey(), e.getValue().asText());
        }
        Planning planning;
        String plan;
        try {
            planning = new Planning(config, scenario.path("sql").asText(), minor);
            plan = planning.explain();
        } catch (Throwable t) {
            return failure(response, "plan", t);
        }
        response.put("ok", true);
        response.put("flinkVersion", flinkVersion);
        response.put("plan", plan);
        ObjectNode pinned = response.putObject("pinnedConfig");
        planning.pinned.forEach(pinned::put);
        // Some rejections come only when the plan is translated into operators (for example a
        // processing-time temporal join), so "plan" translates too.
        Planning.Translated translated;
        try {
            translated = planning.translate();
        } catch (Throwable t) {
            return failure(response, "plan", t);
        }
        if (op.equals("compile")) {
            // evidence beyond explain: Flink's compiled plan (INSERT only) with per-node state TTL and upsert keys
            try {
                response.put("compiledPlan", planning.compile());
            } catch (Throwable t) {
                return failure(response, "plan", t);
            }
        }
        if (!op.equals("run")) {
            response.putNull("notExpressible");
            return response;
        }
        Execution execution = null;
        try {
            Map<String, Integer> partitions = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = scenario.path("partitions").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                partitions.put(e.getKey(), e.getValue().asInt(1));
            }
            String idle = config.getOrDefault("table.exec.source.idle-timeout", "0");
            long idleMs = TimeUtils.parseDuration(idle.trim()).toMillis();
            execution = new Execution(translated, partitions, scenario.path("date").asLong(0), idleMs);
            execution.run(scenario.path("events"), !"manual".equals(scenario.path("watermarks").asText("auto")), planning);
            ArrayNode changelog = response.putArray("changelog");
            for (Execution.Change c : execution.changelog) {
                ObjectNode row = changelog.addObject();
                row.put("step", c.step());
                row.put("op", c.op());
                row.put("text", c.text());
            }
            ArrayNode result = response.putArray("result");
            execution.result().forEach(result::add);
            ArrayNode marks = response.putArray("watermarks");
            long last = Long.MIN_VALUE;
            for (Execution.Mark m : execution.watermarks) {
                if (m.value() <= last) continue;
                last = m.value();
                ObjectNode w = marks.addObject();
                w.put("step", m.step());
                w.put("value", m.value());
            }
            response.putArray("unorderedSteps");
            response.putNull("notExpressible");
        } catch (Execution.NotExpressible e) {
            response.putArray("changelog");
            response.putArray("result");
            response.putArray("watermarks");
            response.put("notExpressible", e.getMessage());
        } catch (Throwable t) {
            return failure(response, "run", t);
        } finally {
            if (execution != null) execution.close();
        }
        return response;
    }

    private ObjectNode failure(ObjectNode response, String phase, Throwable t) {
        JsonNode id = response.get("id");
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof Execution.NotExpressible) {
                // not Flink's failure: a construct the harness cannot drive
                response.put("ok", true);
                response.put("flinkVersion", flinkVersion);
                response.putArray("changelog");
                response.putArray("result");
                response.putArray("watermarks");
                response.put("notExpressible", c.getMessage());
                return response;
            }
        }
        response.removeAll();
        response.set("id", id);
        response.put("ok", false);
        response.put("phase", phase);
        ObjectNode error = response.putObject("error");
        error.put("class", t.getClass().getName());
        error.put("message", String.valueOf(t.getMessage()));
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        error.put("rootCause", root == t ? null : root.getClass().getName() + ": " + root.getMessage());
        if (System.getenv("JOINSTEP_HARNESS_TRACE") != null) t.printStackTrace(System.err);
        return response;
    }
}
