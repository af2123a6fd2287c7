package dev.joinstep.harness;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.TimestampAssignerSupplier;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.io.InputFormat;
import org.apache.flink.api.common.io.RichInputFormat;
import org.apache.flink.core.io.GenericInputSplit;
import org.apache.flink.streaming.api.functions.source.legacy.InputFormatSourceFunction;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamSource;
import org.apache.flink.streaming.api.transformations.LegacySourceTransformation;
import org.apache.flink.streaming.api.operators.StreamOperatorFactory;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.streaming.api.transformations.TwoInputTransformation;
import org.apache.flink.streaming.api.transformations.UnionTransformation;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.io.PushingAsyncDataInput;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.StatusWatermarkValve;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.TwoInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.InstantiationUtil;
import org.apache.flink.util.clock.RelativeClock;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs a planned query on the operators Flink's planner generated, each in Flink's operator test
 * harness, fed with exactly the scenario's events: one source instance per table partition, each
 * reaching the next exchange through its own channel of Flink's StatusWatermarkValve, and one
 * processing-time clock (timers, state TTL, lookup cache) moved only by the scenario.
 */
final class Execution {
    static final int MAX_PARALLELISM = 128;

    /** One changelog row, tagged with the step that caused it. */
    record Change(int step, String op, String text) {}

    record Mark(int step, long value) {}

    /** Something an element can be handed to: an operator's input, an exchange channel, the tap. */
    interface Target {
        void accept(Object element, int input, int channel) throws Exception;
    }

    record Edge(Target target, int input, int channel) {}

    private final RunContext ctx;
    private final Map<String, Integer> partitions;
    private final long idleTimeoutMs;
    private final ExecutionConfig executionConfig = new ExecutionConfig();
    private final List<OperatorInstance> operators = new ArrayList<>();
    private final Map<String, List<PartitionSource>> sources = new TreeMap<>();
    final List<Change> changelog = new ArrayList<>();
    final List<Mark> watermarks = new ArrayList<>();
    private final Materialized result;
    private Transformation<?> joinTransformation;
    private int step = 0;
    private long now;

    Execution(Planning.Translated plan, Map<String, Integer> partitions, long startMs, long idleTimeoutMs) throws Exception {
        this.ctx = RunContext.current();
        this.partitions = partitions;
        this.idleTimeoutMs = idleTimeoutMs;
        this.now = startMs;
        this.result = new Materialized(plan.sink().primaryKey());
        ctx.setCacheClock(startMs);
        joinTransformation = findJoin(plan.root(), new IdentityHashMap<>());
        // An interval join with an empty window (upper bound below lower bound) has no join
        // operator: Flink unions the padded or filtered inputs (StreamExecIntervalJoin's negative
        // window size path), and that union's combined watermark is what leaves the "join".
        if (joinTransformation == null) joinTransformation = findUnion(plan.root(), new IdentityHashMap<>());
        Target tap = new Tap(plan.sink().rowType());
        build(plan.tap(), List.of(new Edge(tap, 1, 0)));
        for (OperatorInstance op : operators) op.open(startMs);
        for (ConstantSource c : constants) c.emit();
    }

    // ---- building the instances ----

    private static Transformation<?> findJoin(Transformation<?> t, Map<Transformation<?>, Boolean> seen) {
        if (seen.put(t, true) != null) return null;
        if (t instanceof TwoInputTransformation) return t;
        if (t instanceof OneInputTransformation && t.getName().contains("Join")) return t;
        for (Transformation<?> in : t.getInputs()) {
            Transformation<?> j = findJoin(in, seen);
            if (j != null) return j;
        }
        return null;
    }

    private static Transformation<?> findUnion(Transformation<?> t, Map<Transformation<?>, Boolean> seen) {
        if (seen.put(t, true) != null) return null;
        if (t instanceof UnionTransformation) return t;
        for (Transformation<?> in : t.getInputs()) {
            Transformation<?> u = findUnion(in, seen);
            if (u != null) return u;
        }
        return null;
    }

    /** How many parallel instances a node has: a source's partitions, up to the next exchange. */
    private int copies(Transformation<?> t) {
        RunContext.SourceTap s = ctx.sources.get(t);
        if (s != null) return partitions.getOrDefault(s.table(), 1);
        if (t instanceof PartitionTransformation) return 1;
        if (t instanceof OneInputTransformation) return copies(t.getInputs().get(0));
        return 1;
    }

    /** Per built transformation, the output edges of each of its copies (so a reused node gets more). */
    private final Map<Transformation<?>, List<List<Edge>>> built = new IdentityHashMap<>();

    /**
     * Creates the instances of t (and, recursively, of its inputs) whose outputs go to the given
     * edges: one edge per copy of t when t has several copies, otherwise the edges all receive.
     * A transformation read by two consumers (a reused source, for example) is built once and
     * feeds both.
     */
    private void build(Transformation<?> t, List<Edge> downstreamPerCopy) throws Exception {
        int n = copies(t);
        if (n > 1 && downstreamPerCopy.size() == 1 && !built.containsKey(t)) {
            // t runs once per source partition (chained to the source, no exchange since), but its
            // consumer runs once: as in a deployed job, a network exchange joins the copies, each
            // through its own channel of the consumer's StatusWatermarkValve. (A lookup join, chained
            // to its probe side, feeding the sink is the common case.)
            Exchange merge = new Exchange(serializer(t), n, downstreamPerCopy);
            List<Edge> in = new ArrayList<>();
            for (int c = 0; c < n; c++) in.add(new Edge(merge, 1, c));
            build(t, in);
            return;
        }
        List<List<Edge>> existing = built.get(t);
        if (existing != null) {
            for (int c = 0; c < existing.size(); c++) existing.get(c).addAll(edgesFor(downstreamPerCopy, c, n));
            return;
        }
        List<List<Edge>> outs = new ArrayList<>();
        for (int c = 0; c < n; c++) outs.add(new ArrayList<>(edgesFor(downstreamPerCopy, c, n)));
        built.put(t, outs);
        RunContext.SourceTap source = ctx.sources.get(t);
        if (source != null) {
            List<PartitionSource> list = new ArrayList<>();
            for (int p = 0; p < n; p++) list.add(new PartitionSource(source, p, outs.get(p)));
            sources.put(source.table(), list);
            return;
        }
        if (t instanceof PartitionTransformation) {
            PartitionTransformation<?> pt = (PartitionTransformation<?>) t;
            int upstream = copies(pt.getInputs().get(0));
            Exchange ex = new Exchange(serializer(pt), upstream, outs.get(0));
            List<Edge> in = new ArrayList<>();
            for (int c = 0; c < upstream; c++) in.add(new Edge(ex, 1, c));
            build(pt.getInputs().get(0), in);
            return;
        }
        if (t instanceof OneInputTransformation) {
            List<Edge> in = new ArrayList<>();
            for (int c = 0; c < n; c++) {
                OperatorInstance op = new OperatorInstance(t, outs.get(c));
                in.add(new Edge(op, 1, c));
            }
            build(t.getInputs().get(0), in);
            // inputs are built first, so the list of operators is in topological order
            for (Edge e : in) operators.add((OperatorInstance) e.target());
            return;
        }
        if (t instanceof TwoInputTransformation) {
            OperatorInstance op = new OperatorInstance(t, outs.get(0));
            build(t.getInputs().get(0), List.of(new Edge(op, 1, 0)));
            build(t.getInputs().get(1), List.of(new Edge(op, 2, 0)));
            operators.add(op);
            return;
        }
        if (t instanceof UnionTransformation) {
            // each input of a union is its own set of channels into the next operator
            int channels = 0;
            for (Transformation<?> in : t.getInputs()) channels += copies(in);
            List<Edge> unionOut = outs.get(0);
            if (t == joinTransformation) {
                unionOut = new ArrayList<>(unionOut);
                unionOut.add(new Edge(new JoinWatermarks(), 1, 0));
            }
            Union union = new Union(channels, unionOut);
            int base = 0;
            for (Transformation<?> in : t.getInputs()) {
                int c = copies(in);
                List<Edge> edges = new ArrayList<>();
                for (int i = 0; i < c; i++) edges.add(new Edge(union, 1, base + i));
                base += c;
                build(in, edges);
            }
            return;
        }
        if (t instanceof LegacySourceTransformation && ((LegacySourceTransformation<?>) t).getOperator() instanceof StreamSource) {
            Object function = ((StreamSource<?, ?>) ((LegacySourceTransformation<?>) t).getOperator()).getUserFunction();
            if (function instanceof InputFormatSourceFunction) {
                // A constant relation: the planner folded part of the query into literal rows (a
                // join whose condition simplifies to FALSE becomes an empty Values, for example).
                constants.add(new ConstantSource(((InputFormatSourceFunction<?>) function).getFormat(), outs.get(0)));
                return;
            }
        }
        throw new NotExpressible("the plan contains a " + t.getClass().getSimpleName() + " (" + t.getName() + "), which the harness does not drive");
    }

    private final List<ConstantSource> constants = new ArrayList<>();

    /**
     * A bounded source of constant rows (the planner's Values): in a deployed job it reads its
     * rows as soon as the job starts and then ends, and a source that ends emits the final
     * watermark (Long.MAX_VALUE). Here that happens once every operator is open, before step 1.
     */
    final class ConstantSource {
        private final InputFormat<?, ?> format;
        private final List<Edge> out;

        ConstantSource(InputFormat<?, ?> format, List<Edge> out) {
            this.format = format;
            this.out = out;
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        void emit() throws Exception {
            if (format instanceof RichInputFormat) ((RichInputFormat<?, ?>) format).setRuntimeContext(classLoaderOnly());
            InputFormat raw = format;
            raw.open(new GenericInputSplit(0, 1));
            while (!raw.reachedEnd()) {
                Object row = raw.nextRecord(null);
                if (row == null) break;
                forward(out, new StreamRecord<>(row));
            }
            raw.close();
            forward(out, Watermark.MAX_WATERMARK);
        }

        /** The one thing the generated input format asks its runtime context for: a class loader. */
        private RuntimeContext classLoaderOnly() {
            ClassLoader cl = Thread.currentThread().getContextClassLoader();
            return (RuntimeContext) Proxy.newProxyInstance(Execution.class.getClassLoader(), new Class<?>[] {RuntimeContext.class}, (proxy, method, args) -> {
                switch (method.getName()) {
                    case "getUserCodeClassLoader":
                        return cl;
                    case "hashCode":
                        return System.identityHashCode(proxy);
                    case "equals":
                        return proxy == args[0];
                    case "toString":
                        return "constant source context";
                    default:
                        throw new UnsupportedOperationException("a constant source's context has no " + method.getName());
                }
            });
        }
    }

    private static List<Edge> edgesFor(List<Edge> perCopy, int copy, int copies) {
        if (copies == 1) return perCopy;
        return List.of(perCopy.get(copy));
    }

    @SuppressWarnings("unchecked")
    private TypeSerializer<Object> serializer(Transformation<?> t) {
        return (TypeSerializer<Object>) t.getOutputType().createSerializer(executionConfig.getSerializerConfig());
    }

    static void forward(List<Edge> edges, Object element) throws Exception {
        for (Edge e : edges) e.target().accept(element, e.input(), e.channel());
    }

    // ---- the instances ----

    /** One operator of the plan in Flink's test harness. */
    final class OperatorInstance implements Target {
        final Transformation<?> t;
        final List<Edge> out;
        final AbstractStreamOperatorTestHarness<Object> harness;
        final boolean isJoin;

        @SuppressWarnings({"unchecked", "rawtypes"})
        OperatorInstance(Transformation<?> t, List<Edge> out) throws Exception {
            this.t = t;
            this.out = out;
            this.isJoin = t == joinTransformation;
            ClassLoader cl = Thread.currentThread().getContextClassLoader();
            if (t instanceof OneInputTransformation) {
                OneInputTransformation one = (OneInputTransformation) t;
                // a deployed task deserializes its own copy of the operator
                StreamOperatorFactory factory = InstantiationUtil.clone((StreamOperatorFactory) one.getOperatorFactory(), cl);
                KeySelector ks = one.getStateKeySelector();
                harness = ks != null
                        ? new KeyedOneInputStreamOperatorTestHarness(factory, ks, one.getStateKeyType(), MAX_PARALLELISM, 1, 0)
                        : new OneInputStreamOperatorTestHarness(factory, MAX_PARALLELISM, 1, 0);
            } else {
                TwoInputTransformation two = (TwoInputTransformation) t;
                StreamOperatorFactory factory = InstantiationUtil.clone((StreamOperatorFactory) two.getOperatorFactory(), cl);
                if (!(factory instanceof SimpleOperatorFactory)) {
                    throw new NotExpressible("two-input operator " + t.getName() + " has a " + factory.getClass().getSimpleName());
                }
                TwoInputStreamOperator op = (TwoInputStreamOperator) ((SimpleOperatorFactory) factory).getOperator();
                KeySelector k1 = two.getStateKeySelector1();
                harness = k1 != null
                        ? new KeyedTwoInputStreamOperatorTestHarness(op, k1, two.getStateKeySelector2(), two.getStateKeyType(), MAX_PARALLELISM, 1, 0)
                        : new TwoInputStreamOperatorTestHarness(op, MAX_PARALLELISM, 1, 0);
            }
        }

        void open(long startMs) throws Exception {
            if (harness instanceof OneInputStreamOperatorTestHarness) {
                ((OneInputStreamOperatorTestHarness<Object, Object>) harness).setup(serializer(t));
            } else {
                harness.setup(serializer(t));
            }
            harness.setStateTtlProcessingTime(startMs);
            harness.setProcessingTime(startMs);
            harness.open();
            drain();
        }

        @Override
        @SuppressWarnings("unchecked")
        public void accept(Object element, int input, int channel) throws Exception {
            if (harness instanceof TwoInputStreamOperatorTestHarness) {
                TwoInputStreamOperatorTestHarness<Object, Object, Object> h = (TwoInputStreamOperatorTestHarness<Object, Object, Object>) harness;
                if (element instanceof StreamRecord) {
                    if (input == 1) h.processElement1((StreamRecord<Object>) element);
                    else h.processElement2((StreamRecord<Object>) element);
                } else if (element instanceof Watermark) {
                    if (input == 1) h.processWatermark1((Watermark) element);
                    else h.processWatermark2((Watermark) element);
                } else if (element instanceof WatermarkStatus) {
                    if (input == 1) h.processWatermarkStatus1((WatermarkStatus) element);
                    else h.processWatermarkStatus2((WatermarkStatus) element);
                }
            } else {
                OneInputStreamOperatorTestHarness<Object, Object> h = (OneInputStreamOperatorTestHarness<Object, Object>) harness;
                if (element instanceof StreamRecord) h.processElement((StreamRecord<Object>) element);
                else if (element instanceof Watermark) h.processWatermark((Watermark) element);
                else if (element instanceof WatermarkStatus) h.processWatermarkStatus((WatermarkStatus) element);
            }
            drain();
        }

        void setTime(long t) throws Exception {
            harness.setStateTtlProcessingTime(t);
            harness.setProcessingTime(t);
            drain();
        }

        Long nextTimer() {
            Long next = null;
            for (Long ts : harness.getProcessingTimeService().getActiveTimerTimestamps()) {
                if (next == null || ts < next) next = ts;
            }
            return next;
        }

        void drain() throws Exception {
            Object element;
            while ((element = harness.getOutput().poll()) != null) {
                if (element instanceof Watermark && isJoin) watermarks.add(new Mark(step, ((Watermark) element).getTimestamp()));
                if (element instanceof StreamRecord || element instanceof Watermark || element instanceof WatermarkStatus) {
                    forward(out, element);
                }
            }
        }

        void close() {
            try {
                harness.close();
            } catch (Exception ignored) {
                // closing is best effort: the run's output is already complete
            }
        }
    }

    /**
     * A network exchange: rows cross it serialized (so they arrive as BinaryRowData, as in a
     * deployed job), and each upstream instance's watermarks and statuses go through its own
     * channel of Flink's StatusWatermarkValve.
     */
    static final class Exchange implements Target {
        private final TypeSerializer<Object> serializer;
        private final StatusWatermarkValve valve;
        private final List<Edge> out;
        private final PushingAsyncDataInput.DataOutput<?> valveOutput;
        private final DataOutputSerializer buffer = new DataOutputSerializer(256);

        Exchange(TypeSerializer<Object> serializer, int channels, List<Edge> out) {
            this.serializer = serializer;
            this.valve = new StatusWatermarkValve(channels);
            this.out = out;
            this.valveOutput = valveOutput(out);
        }

        @Override
        public void accept(Object element, int input, int channel) throws Exception {
            if (element instanceof StreamRecord) {
                StreamRecord<?> r = (StreamRecord<?>) element;
                buffer.clear();
                serializer.serialize(r.getValue(), buffer);
                Object copy = serializer.deserialize(new DataInputDeserializer(buffer.getCopyOfBuffer()));
                forward(out, r.hasTimestamp() ? new StreamRecord<>(copy, r.getTimestamp()) : new StreamRecord<>(copy));
            } else if (element instanceof Watermark) {
                valve.inputWatermark((Watermark) element, channel, valveOutput);
            } else if (element instanceof WatermarkStatus) {
                valve.inputWatermarkStatus((WatermarkStatus) element, channel, valveOutput);
            }
        }

        /** The valve's output, forwarding what it emits; a proxy so it fits every 2.x version of the interface. */
        static PushingAsyncDataInput.DataOutput<?> valveOutput(List<Edge> out) {
            return (PushingAsyncDataInput.DataOutput<?>) Proxy.newProxyInstance(
                    Execution.class.getClassLoader(),
                    new Class<?>[] {PushingAsyncDataInput.DataOutput.class},
                    (proxy, method, args) -> {
                        String name = method.getName();
                        if ((name.equals("emitWatermark") && args[0] instanceof Watermark) || name.equals("emitWatermarkStatus")) {
                            forward(out, args[0]);
                        } else if (name.equals("emitRecord")) {
                            forward(out, args[0]);
                        } else if (name.equals("toString")) {
                            return "valve output";
                        } else if (name.equals("hashCode")) {
                            return System.identityHashCode(proxy);
                        } else if (name.equals("equals")) {
                            return proxy == args[0];
                        }
                        return null;
                    });
        }
    }

    /** A union: records pass as they come, watermarks combine over all inputs' channels in Flink's valve. */
    static final class Union implements Target {
        private final StatusWatermarkValve valve;
        private final List<Edge> out;
        private final PushingAsyncDataInput.DataOutput<?> valveOutput;

        Union(int channels, List<Edge> out) {
            this.valve = new StatusWatermarkValve(channels);
            this.out = out;
            this.valveOutput = Exchange.valveOutput(out);
        }

        @Override
        public void accept(Object element, int input, int channel) throws Exception {
            if (element instanceof StreamRecord) forward(out, element);
            else if (element instanceof Watermark) valve.inputWatermark((Watermark) element, channel, valveOutput);
            else if (element instanceof WatermarkStatus) valve.inputWatermarkStatus((WatermarkStatus) element, channel, valveOutput);
        }
    }

    /** Records the watermarks a union standing in for the join emits (see findUnion). */
    final class JoinWatermarks implements Target {
        @Override
        public void accept(Object element, int input, int channel) {
            if (element instanceof Watermark) watermarks.add(new Mark(step, ((Watermark) element).getTimestamp()));
        }
    }

    /** Where the query's rows leave the plan: the changelog and the materialized result. */
    final class Tap implements Target {
        private final DataStructureConverter<Object, Object> converter;

        @SuppressWarnings("unchecked")
        Tap(RowType internalType) {
            converter = (DataStructureConverter<Object, Object>) DataStructureConverters.getConverter(TypeConversions.fromLogicalToDataType(internalType));
            converter.open(Execution.class.getClassLoader());
        }

        @Override
        public void accept(Object element, int input, int channel) {
            if (!(element instanceof StreamRecord)) return;
            RowData data = (RowData) ((StreamRecord<?>) element).getValue();
            Row row = (Row) converter.toExternalOrNull(data);
            row.setKind(data.getRowKind());
            String text = row.toString();
            changelog.add(new Change(step, row.getKind().shortString(), text));
            result.apply(row);
        }
    }

    /** One source instance: a table partition with its own watermark generator and idleness. */
    final class PartitionSource {
        final RunContext.SourceTap tap;
        final int partition;
        final List<Edge> out;
        final WatermarkGenerator<RowData> generator;
        final TimestampAssigner<RowData> timestamps;
        long maxWatermarkSoFar = Long.MIN_VALUE;
        boolean idle = false;
        long lastActivity;
        private Long generated;

        PartitionSource(RunContext.SourceTap tap, int partition, List<Edge> out) {
            this.tap = tap;
            this.partition = partition;
            this.out = out;
            this.lastActivity = now;
            if (tap.watermarks() != null) {
                generator = tap.watermarks().createWatermarkGenerator(generatorContext());
                timestamps = tap.watermarks().createTimestampAssigner(assignerContext());
            } else {
                generator = null;
                timestamps = null;
            }
        }

        private long offset = 0;

        /**
         * The row as the source produces it: physical columns, then the metadata the query reads.
         * Metadata the event does not give is filled as the Kafka source would: the topic, this
         * partition, the next offset, the current processing time as the record's CreateTime.
         */
        GenericRowData read(JsonNode values, RowKind kind) {
            RunContext.Metadata m = tap.metadata();
            RowType produced = tap.producedType();
            List<RowType.RowField> fields = new ArrayList<>(produced.getFields().subList(0, m.physicalCount()));
            for (int i = 0; i < m.keys().size(); i++) {
                String column = m.columnByKey().getOrDefault(m.keys().get(i), m.keys().get(i));
                fields.add(new RowType.RowField(column, produced.getTypeAt(m.physicalCount() + i)));
            }
            GenericRowData row = Values.row(values, new RowType(fields), kind);
            for (int i = 0; i < m.keys().size(); i++) {
                int at = m.physicalCount() + i;
                if (!row.isNullAt(at)) continue;
                switch (m.keys().get(i)) {
                    case "topic":
                        row.setField(at, StringData.fromString(m.topic()));
                        break;
                    case "partition":
                        row.setField(at, partition);
                        break;
                    case "offset":
                        row.setField(at, offset);
                        break;
                    case "timestamp":
                        row.setField(at, TimestampData.fromEpochMillis(now));
                        break;
                    case "timestamp-type":
                        row.setField(at, StringData.fromString("CreateTime"));
                        break;
                    case "headers":
                        row.setField(at, new GenericMapData(java.util.Map.of()));
                        break;
                    default:
                        break;
                }
            }
            offset++;
            return row;
        }

        void row(GenericRowData row, boolean autoWatermarks) throws Exception {
            lastActivity = now;
            markActive();
            long ts = timestamps == null ? Long.MIN_VALUE : timestamps.extractTimestamp(row, Long.MIN_VALUE);
            if (generator != null) generator.onEvent(row, ts, capture());
            forward(out, timestamps == null ? new StreamRecord<>(row) : new StreamRecord<>(row, ts));
            if (autoWatermarks) {
                Long g = generatedValue();
                if (g != null) emitWatermark(g);
            }
        }

        /** The watermark the generator would emit now (its periodic emission), or null. */
        Long generatedValue() {
            if (generator == null) return null;
            generated = null;
            generator.onPeriodicEmit(capture());
            return generated;
        }

        private WatermarkOutput capture() {
            return new WatermarkOutput() {
                @Override
                public void emitWatermark(org.apache.flink.api.common.eventtime.Watermark watermark) {
                    generated = watermark.getTimestamp();
                }

                @Override
                public void markIdle() {}

                @Override
                public void markActive() {}
            };
        }

        /** As a source's watermark output does: only a rising watermark is emitted, and it makes the instance active. */
        void emitWatermark(long value) throws Exception {
            if (value <= maxWatermarkSoFar) return;
            maxWatermarkSoFar = value;
            markActive();
            forward(out, new Watermark(value));
        }

        void markIdle() throws Exception {
            if (idle) return;
            idle = true;
            forward(out, WatermarkStatus.IDLE);
        }

        void markActive() throws Exception {
            if (!idle) return;
            idle = false;
            forward(out, WatermarkStatus.ACTIVE);
        }

        Long idleDeadline() {
            if (idleTimeoutMs <= 0 || idle) return null;
            return lastActivity + idleTimeoutMs;
        }
    }

    private static WatermarkGeneratorSupplier.Context generatorContext() {
        // the generator's idleness clock never moves: the harness applies the idle timeout itself
        RelativeClock still = new RelativeClock() {
            @Override
            public long relativeTimeMillis() {
                return 0;
            }

            @Override
            public long relativeTimeNanos() {
                return 0;
            }
        };
        return (WatermarkGeneratorSupplier.Context) Proxy.newProxyInstance(
                Execution.class.getClassLoader(),
                new Class<?>[] {WatermarkGeneratorSupplier.Context.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getMetricGroup":
                            return new UnregisteredMetricsGroup();
                        case "getInputActivityClock":
                            return still;
                        default:
                            return null;
                    }
                });
    }

    private static TimestampAssignerSupplier.Context assignerContext() {
        return (TimestampAssignerSupplier.Context) Proxy.newProxyInstance(
                Execution.class.getClassLoader(),
                new Class<?>[] {TimestampAssignerSupplier.Context.class},
                (proxy, method, args) -> method.getName().equals("getMetricGroup") ? new UnregisteredMetricsGroup() : null);
    }

    // ---- running the events ----

    void run(JsonNode events, boolean autoWatermarks, Planning planning) throws Exception {
        for (JsonNode e : events) {
            step = e.path("step").asInt();
            if (e.hasNonNull("at")) advanceTo(e.get("at").asLong());
            String kind = e.path("kind").asText();
            switch (kind) {
                case "row":
                    row(e, autoWatermarks, planning);
                    break;
                case "watermark":
                    for (PartitionSource p : partitionsOf(e)) {
                        JsonNode to = e.get("to");
                        Long value;
                        if (to == null || to.isNull() || "generated".equals(to.asText())) value = p.generatedValue();
                        else if ("max".equals(to.asText())) value = Long.MAX_VALUE;
                        else value = to.asLong();
                        if (value != null) p.emitWatermark(value);
                    }
                    break;
                case "idle":
                    for (PartitionSource p : partitionsOf(e)) p.markIdle();
                    break;
                case "active":
                    for (PartitionSource p : partitionsOf(e)) p.markActive();
                    break;
                case "advance":
                    advanceTo(now + e.path("ms").asLong());
                    break;
                case "note":
                    break;
                default:
                    throw new IllegalArgumentException("unknown event kind '" + kind + "'");
            }
        }
    }

    private List<PartitionSource> partitionsOf(JsonNode e) {
        List<PartitionSource> all = sources.get(e.path("table").asText());
        if (all == null) return List.of();
        JsonNode p = e.get("partition");
        if (p == null || p.isNull()) return all;
        int i = p.asInt();
        return i < all.size() ? List.of(all.get(i)) : List.of();
    }

    private void row(JsonNode e, boolean autoWatermarks, Planning planning) throws Exception {
        String table = e.path("table").asText();
        RowKind kind = RowKind.fromByteValue(kindByte(e.path("op").asText("+I")));
        List<PartitionSource> all = sources.get(table);
        if (all != null) {
            int partition = e.path("partition").asInt(0);
            if (partition < 0 || partition >= all.size()) {
                throw new IllegalArgumentException("table " + table + " has " + all.size() + " partition(s), no partition " + partition);
            }
            PartitionSource p = all.get(partition);
            GenericRowData row = p.read(e.path("row"), kind);
            if (p.tap.upsertKeyOnlyDeletes()) {
                if (kind == RowKind.DELETE) {
                    // a tombstone carries only the key, and the record's metadata
                    // (DynamicKafkaDeserializationSchema fills metadata whatever the value)
                    int physical = p.tap.metadata().physicalCount();
                    for (int i = 0; i < physical; i++) if (!contains(p.tap.primaryKey(), i)) row.setField(i, null);
                } else {
                    // upsert-kafka reads every value as an insert of the latest version of its key
                    row.setRowKind(RowKind.INSERT);
                }
            }
            p.row(row, autoWatermarks);
            return;
        }
        if (!planning.hasTable(table)) throw new IllegalArgumentException("the scenario has no table " + table);
        StoreTable store = planning.storeTable(table);
        // a table the query does not read: its rows reach nothing
        if (store == null) return;
        GenericRowData row = Values.row(e.path("row"), store.rowType(), RowKind.INSERT);
        LookupStore s = ctx.store(table, store.rowType(), store.primaryKey());
        if (kind == RowKind.DELETE || kind == RowKind.UPDATE_BEFORE) s.delete(row);
        else s.upsert(row);
    }

    record StoreTable(RowType rowType, int[] primaryKey) {}

    private static boolean contains(int[] a, int v) {
        for (int x : a) if (x == v) return true;
        return false;
    }

    private static byte kindByte(String op) {
        switch (op) {
            case "-U":
                return RowKind.UPDATE_BEFORE.toByteValue();
            case "+U":
                return RowKind.UPDATE_AFTER.toByteValue();
            case "-D":
                return RowKind.DELETE.toByteValue();
            default:
                return RowKind.INSERT.toByteValue();
        }
    }

    /** Moves processing time to target, firing every timer and idle timeout on the way in time order. */
    void advanceTo(long target) throws Exception {
        while (true) {
            Long next = nextDue();
            if (next == null || next > target) break;
            long t = Math.max(next, now);
            setTime(t);
            Long after = nextDue();
            // a timer that stays due at t after firing would loop forever; the final move fires it
            if (after != null && after <= t) break;
        }
        if (target > now) setTime(target);
    }

    private Long nextDue() {
        Long next = null;
        for (OperatorInstance op : operators) next = min(next, op.nextTimer());
        for (List<PartitionSource> list : sources.values()) for (PartitionSource p : list) next = min(next, p.idleDeadline());
        return next;
    }

    private void setTime(long t) throws Exception {
        now = t;
        ctx.setCacheClock(t);
        for (OperatorInstance op : operators) op.setTime(t);
        for (List<PartitionSource> list : sources.values()) {
            for (PartitionSource p : list) {
                Long d = p.idleDeadline();
                if (d != null && d <= t) p.markIdle();
            }
        }
    }

    private static Long min(Long a, Long b) {
        if (a == null) return b;
        if (b == null) return a;
        return Math.min(a, b);
    }

    List<String> result() {
        return result.rows();
    }

    void close() {
        for (OperatorInstance op : operators) op.close();
    }

    /** A construct the harness cannot drive: reported as notExpressible, not as a failure of Flink. */
    static final class NotExpressible extends RuntimeException {
        NotExpressible(String message) {
            super(message);
        }
    }
}
