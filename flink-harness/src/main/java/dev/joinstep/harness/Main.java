package dev.joinstep.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The harness process: one JSON request per line on stdin, one JSON response per line on stdout
 * (see PROTOCOL.md). stdout carries nothing else: anything else printed goes to stderr.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        ObjectMapper json = new ObjectMapper();
        Harness harness = new Harness(json);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            ObjectNode response;
            try {
                JsonNode request = json.readTree(line);
                response = harness.handle(request);
            } catch (Throwable t) {
                response = json.createObjectNode();
                response.putNull("id");
                response.put("ok", false);
                response.put("phase", "run");
                ObjectNode error = response.putObject("error");
                error.put("class", t.getClass().getName());
                error.put("message", "bad request: " + t.getMessage());
                error.putNull("rootCause");
            }
            protocol.println(json.writeValueAsString(response));
        }
        protocol.flush();
        System.exit(0);
    }
}
