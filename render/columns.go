package render

import (
	"fmt"
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
)

// The fields tshark scripts ask -e for that are no field of a record: the
// packet list's columns (_ws.col.Info). They are
// formatted here, from the record, by -T fields and -T ek. They are not
// registered fields: -Y and -G do not know them.

// column is one of the packet list's columns.
type column uint8

const (
	colNo column = iota + 1
	colTime
	colSource
	colDestination
	colProtocol
	colLength
	colInfo
)

// columnNames are the -e names of the columns: tshark 4.0's (its column
// titles) first, then those of later tshark versions.
var columnNames = map[string]column{
	"_ws.col.no.": colNo, "_ws.col.time": colTime, "_ws.col.source": colSource,
	"_ws.col.destination": colDestination, "_ws.col.protocol": colProtocol,
	"_ws.col.length": colLength, "_ws.col.info": colInfo,
	"_ws.col.number": colNo, "_ws.col.cls_time": colTime, "_ws.col.def_src": colSource,
	"_ws.col.def_dst": colDestination, "_ws.col.packet_length": colLength,
}

// ColumnTitles are the packet list's columns, as -T psml names them.
var ColumnTitles = []string{"No.", "Time", "Source", "Destination", "Protocol", "Length", "Info"}

// ResolveField resolves a -e name: a column (_ws.col.Info, any case) or a
// field (record.ResolveField). A column's FieldRef
// has no Field: only this package's renderers read it.
func ResolveField(name string) (record.FieldRef, error) {
	if _, ok := columnNames[strings.ToLower(name)]; ok {
		return record.FieldRef{Name: name}, nil
	}
	if strings.HasPrefix(strings.ToLower(name), "_ws.col.") {
		return record.FieldRef{}, fmt.Errorf("%q is not a column; the columns are _ws.col.%s", name, strings.Join(ColumnTitles, ", _ws.col."))
	}
	return record.ResolveField(name)
}

// columnOf is the column a FieldRef stands for, 0 for a field.
func columnOf(ref record.FieldRef) column {
	if ref.Field != nil {
		return 0
	}
	return columnNames[strings.ToLower(ref.Name)]
}

// appendColumn appends a column of r as tshark -T fields prints it: the
// addresses without their ports, the length of the frame on the wire, the
// time as -t chose (relative by default), the Info escaped.
func appendColumn(b []byte, r *record.Record, c column, timeFormat string) []byte {
	switch c {
	case colNo:
		return dissect.AppendUint(b, r.Frame)
	case colTime:
		if timeFormat == "" {
			timeFormat = "r"
		}
		return appendTimeColumn(b, r, timeFormat)
	case colSource:
		if r.Src.IsValid() {
			return r.Src.Addr().Unmap().AppendTo(b)
		}
	case colDestination:
		if r.Dst.IsValid() {
			return r.Dst.Addr().Unmap().AppendTo(b)
		}
	case colProtocol:
		return append(b, protocols.Column(r.Proto)...)
	case colLength:
		net := r.LayersWith(wantLen)
		if i := net.Find("frame.len"); i >= 0 {
			return dissect.AppendUint(b, net.Nodes[i].Value.N)
		}
	case colInfo:
		return dissect.AppendSafe(b, r.PDU.Info)
	}
	return b
}
