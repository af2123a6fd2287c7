package dev.joinstep.harness;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Iterator;
import java.util.List;

/** Turns the request's row values (strings in Flink's print format) into Flink's internal data. */
final class Values {
    private Values() {}

    /** A row of the table's physical columns; columns absent from the event are null. */
    static GenericRowData row(JsonNode values, RowType type, RowKind kind) {
        List<String> names = type.getFieldNames();
        GenericRowData row = new GenericRowData(kind, names.size());
        for (Iterator<String> it = values.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            int index = names.indexOf(name);
            if (index < 0) throw new IllegalArgumentException("table has no physical column '" + name + "'");
            JsonNode v = values.get(name);
            row.setField(index, v == null || v.isNull() ? null : parse(v.asText(), type.getTypeAt(index), name));
        }
        return row;
    }

    static Object parse(String text, LogicalType type, String column) {
        try {
            switch (type.getTypeRoot()) {
                case CHAR:
                case VARCHAR:
                    return StringData.fromString(text);
                case BOOLEAN:
                    return Boolean.parseBoolean(text.trim());
                case TINYINT:
                    return Byte.parseByte(text.trim());
                case SMALLINT:
                    return Short.parseShort(text.trim());
                case INTEGER:
                    return Integer.parseInt(text.trim());
                case BIGINT:
                    return Long.parseLong(text.trim());
                case FLOAT:
                    return Float.parseFloat(text.trim());
                case DOUBLE:
                    return Double.parseDouble(text.trim());
                case DECIMAL: {
                    DecimalType d = (DecimalType) type;
                    BigDecimal v = new BigDecimal(text.trim()).setScale(d.getScale(), RoundingMode.HALF_UP);
                    return DecimalData.fromBigDecimal(v, d.getPrecision(), d.getScale());
                }
                case DATE:
                    return (int) LocalDate.parse(text.trim()).toEpochDay();
                case TIME_WITHOUT_TIME_ZONE:
                    return (int) (LocalTime.parse(text.trim()).toNanoOfDay() / 1_000_000L);
                case TIMESTAMP_WITHOUT_TIME_ZONE:
                    return TimestampData.fromLocalDateTime(LocalDateTime.parse(text.trim()));
                case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                    return TimestampData.fromInstant(Instant.parse(text.trim()));
                default:
                    throw new IllegalArgumentException("the harness does not read values of type " + type);
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("column " + column + ": cannot read '" + text + "' as " + type + ": " + e.getMessage(), e);
        }
    }
}
