package io.sluice.common.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;

class NestedDataTypeTest {
    private static final DataType POINT = DataType.struct(List.of(new Field("a", DataType.INT32), new Field("b", DataType.UTF8)));

    @Test
    void sqlNamesAreSparksShapes() {
        assertThat(POINT.sqlName()).isEqualTo("STRUCT<a: INTEGER, b: VARCHAR>");
        assertThat(DataType.list(DataType.INT32).sqlName()).isEqualTo("ARRAY<INTEGER>");
        assertThat(DataType.map(DataType.UTF8, DataType.list(POINT)).sqlName())
                .isEqualTo("MAP<VARCHAR, ARRAY<STRUCT<a: INTEGER, b: VARCHAR>>>");
        assertThat(DataType.map(DataType.UTF8, DataType.INT64)).hasToString("map<utf8, int64>");
    }

    @Test
    void equalityIsStructural() {
        assertThat(DataType.list(POINT)).isEqualTo(DataType.list(
                DataType.struct(List.of(new Field("a", DataType.INT32), new Field("b", DataType.UTF8)))));
        assertThat(DataType.list(POINT)).isNotEqualTo(DataType.list(
                DataType.struct(List.of(new Field("a", DataType.INT64), new Field("b", DataType.UTF8)))));
        assertThat(DataType.INT32).isEqualTo(new DataType(DataType.Kind.INT32, 0, 0, null));
    }

    @Test
    void arrowFieldsCarryTheChildrenAndReadBack() {
        DataType deep = DataType.struct(List.of(new Field("p", POINT), new Field("xs", DataType.list(DataType.decimal(20, 2))),
                new Field("m", DataType.map(DataType.UTF8, DataType.list(DataType.INT64)))));
        org.apache.arrow.vector.types.pojo.Field arrow = deep.toArrowField("c");
        assertThat(arrow.getType()).isEqualTo(ArrowType.Struct.INSTANCE);
        assertThat(arrow.getChildren()).hasSize(3);
        org.apache.arrow.vector.types.pojo.Field map = arrow.getChildren().get(2);
        assertThat(map.getType()).isInstanceOf(ArrowType.Map.class);
        assertThat(map.getChildren().get(0).getName()).isEqualTo(DataType.ENTRIES);
        assertThat(map.getChildren().get(0).getChildren().get(0).isNullable()).isFalse();
        assertThat(DataType.fromArrowField(arrow)).isEqualTo(deep);
        Schema schema = Schema.of(new Field("c", deep), new Field("i", DataType.INT32));
        assertThat(Schema.fromArrow(schema.toArrow())).isEqualTo(schema);
    }

    @Test
    void malformedNestedTypesAreRefused() {
        assertThatThrownBy(() -> DataType.struct(List.of(new Field("a", DataType.INT32), new Field("a", DataType.UTF8))))
                .isInstanceOf(SluiceException.class).hasMessageContaining("duplicate struct field name 'a'");
        assertThatThrownBy(() -> new DataType(DataType.Kind.LIST, 0, 0, List.of()))
                .hasMessageContaining("LIST takes 1 child fields, not 0");
        assertThatThrownBy(() -> new DataType(DataType.Kind.INT32, 0, 0, List.of(new Field("x", DataType.INT32))))
                .hasMessageContaining("INT32 has no child fields");
        assertThatThrownBy(() -> DataType.fromArrow(ArrowType.Struct.INSTANCE)).hasMessageContaining("fromArrowField");
        assertThatThrownBy(POINT::elementType).hasMessageContaining("is not a LIST");
    }

    @Test
    void structFieldsAreFoundByNameExactThenIgnoringCase() {
        assertThat(POINT.fieldIndex("b")).isEqualTo(1);
        assertThat(POINT.fieldIndex("B")).isEqualTo(1);
        assertThat(POINT.fieldIndex("c")).isEqualTo(-1);
        DataType both = DataType.struct(List.of(new Field("x", DataType.INT32), new Field("X", DataType.INT32)));
        assertThat(both.fieldIndex("X")).isEqualTo(1);
        assertThat(both.fieldIndex("x")).isEqualTo(0);
    }
}
