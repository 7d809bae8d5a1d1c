// Command kube-protobuf writes what the embedded cluster needs to speak Kubernetes' protobuf:
//
//   - a schema of every message of the API groups it serves: field numbers and JSON names from
//     the struct tags of the k8s.io/api types (the tags go-to-protobuf writes their
//     generated.proto from), scalar types from the Go types themselves (a tag's wire kind is not
//     always what the marshaller writes: ListMeta.remainingItemCount says bytes and is a
//     varint), plus what generated.proto cannot say
//     and JSON needs: which fields are pointers, which are omitempty, which are inlined, and
//     which types have a JSON form of their own (Time, Quantity, IntOrString, ...);
//   - test vectors: sample objects as Kubernetes' own JSON and protobuf serializers write them.
//
// Usage: go run . -schema <file> -vectors <file> -samples <dir>
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The API groups whose built-in kinds the embedded cluster serves, or will.
var addToScheme = []func(*runtime.Scheme) error{
	corev1.AddToScheme,
	rbacv1.AddToScheme,
	authorizationv1.AddToScheme,
	authenticationv1.AddToScheme,
	storagev1.AddToScheme,
	policyv1.AddToScheme,
	coordinationv1.AddToScheme,
	appsv1.AddToScheme,
	eventsv1.AddToScheme,
	networkingv1.AddToScheme,
	metav1.AddMetaToScheme,
}

// Types whose JSON is not their fields': the codec converts each by name.
var ownJSON = map[reflect.Type]string{
	reflect.TypeFor[metav1.Time]():          "time",
	reflect.TypeFor[metav1.MicroTime]():     "microTime",
	reflect.TypeFor[resource.Quantity]():    "quantity",
	reflect.TypeFor[intstr.IntOrString]():   "intOrString",
	reflect.TypeFor[metav1.FieldsV1]():      "rawJSON",
	reflect.TypeFor[runtime.RawExtension](): "rawJSON",
}

var (
	jsonMarshaler  = reflect.TypeFor[json.Marshaler]()
	protoMarshaler = reflect.TypeFor[interface{ Marshal() ([]byte, error) }]()
)

type mapOf struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type field struct {
	// The JSON name; empty for a field whose members JSON inlines into the parent.
	Name      string `json:"name,omitempty"`
	Number    int    `json:"number"`
	Type      string `json:"type"`
	Repeated  bool   `json:"repeated,omitempty"`
	Map       *mapOf `json:"map,omitempty"`
	Pointer   bool   `json:"pointer,omitempty"`
	OmitEmpty bool   `json:"omitEmpty,omitempty"`
	Inline    bool   `json:"inline,omitempty"`
}

type message struct {
	Fields []field `json:"fields,omitempty"`
	// A named slice type: in protobuf a message of one repeated field (items = 1), in JSON the bare list.
	ListOf string `json:"listOf,omitempty"`
}

type schemaFile struct {
	Source   string                       `json:"source"`
	Kinds    map[string]map[string]string `json:"kinds"`
	Messages map[string]message           `json:"messages"`
}

type generator struct {
	messages map[string]message
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "kube-protobuf: "+format+"\n", args...)
	os.Exit(1)
}

func messageName(t reflect.Type) string {
	return strings.ReplaceAll(t.PkgPath(), "/", ".") + "." + t.Name()
}

var scalars = map[reflect.Kind]string{
	reflect.String:  "string",
	reflect.Bool:    "bool",
	reflect.Int32:   "int32",
	reflect.Int64:   "int64",
	reflect.Uint32:  "uint32",
	reflect.Uint64:  "uint64",
	reflect.Float64: "double",
	reflect.Float32: "float",
}

// typeOf names t's protobuf type, recording the messages it needs.
func (g *generator) typeOf(t reflect.Type, where string) string {
	if special, ok := ownJSON[t]; ok {
		return special
	}
	if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
		return "bytes"
	}
	if scalar, ok := scalars[t.Kind()]; ok {
		return scalar
	}
	switch t.Kind() {
	case reflect.Struct:
		return g.message(t)
	case reflect.Slice:
		if t.Name() != "" && reflect.PointerTo(t).Implements(protoMarshaler) {
			name := messageName(t)
			if _, seen := g.messages[name]; !seen {
				g.messages[name] = message{}
				g.messages[name] = message{ListOf: g.typeOf(t.Elem(), name+".items")}
			}
			return name
		}
	}
	fail("%s: no protobuf type for Go type %s", where, t)
	return ""
}

func (g *generator) message(t reflect.Type) string {
	name := messageName(t)
	if _, seen := g.messages[name]; seen {
		return name
	}
	if t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) {
		fail("%s has a JSON form of its own: teach the codec its conversion and add it to ownJSON", t)
	}
	g.messages[name] = message{} // a placeholder, so recursive types end
	var fields []field
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("protobuf")
		if tag == "" || tag == "-" {
			continue
		}
		where := name + "." + f.Name
		parts := strings.Split(tag, ",")
		if len(parts) < 3 {
			fail("%s: malformed protobuf tag %q", where, tag)
		}
		number, err := strconv.Atoi(parts[1])
		if err != nil {
			fail("%s: field number in %q: %v", where, tag, err)
		}
		jsonName, jsonOptions, _ := strings.Cut(f.Tag.Get("json"), ",")
		out := field{Name: jsonName, Number: number}
		for _, option := range strings.Split(jsonOptions, ",") {
			switch option {
			case "omitempty":
				out.OmitEmpty = true
			case "inline":
				out.Inline = true
			}
		}
		if jsonName == "-" {
			fail("%s: in protobuf but not in JSON", where)
		}
		goType := f.Type
		if goType.Kind() == reflect.Pointer {
			out.Pointer = true
			goType = goType.Elem()
		}
		switch {
		case goType.Kind() == reflect.Map:
			// A protobuf map: repeated entries of key (1) and value (2).
			out.Type = "map"
			out.Map = &mapOf{Key: g.typeOf(goType.Key(), where+".key"), Value: g.typeOf(goType.Elem(), where+".value")}
		case goType.Kind() == reflect.Slice && goType.Elem().Kind() != reflect.Uint8 && !(goType.Name() != "" && reflect.PointerTo(goType).Implements(protoMarshaler)):
			out.Repeated = true
			out.Type = g.typeOf(goType.Elem(), where)
		default:
			out.Type = g.typeOf(goType, where)
		}
		if out.Inline && out.Name != "" {
			fail("%s: inline with a name", where)
		}
		fields = append(fields, out)
	}
	sort.Slice(fields, func(i, j int) bool { return fields[i].Number < fields[j].Number })
	g.messages[name] = message{Fields: fields}
	return name
}

func moduleVersions() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		fail("no build information")
	}
	var versions []string
	for _, dependency := range info.Deps {
		if dependency.Path == "k8s.io/api" || dependency.Path == "k8s.io/apimachinery" {
			versions = append(versions, dependency.Path+" "+dependency.Version)
		}
	}
	sort.Strings(versions)
	return strings.Join(versions, ", ")
}

func newScheme() *runtime.Scheme {
	scheme := runtime.NewScheme()
	for _, add := range addToScheme {
		if err := add(scheme); err != nil {
			fail("scheme: %v", err)
		}
	}
	return scheme
}

func buildSchema(scheme *runtime.Scheme) schemaFile {
	g := &generator{messages: map[string]message{}}
	kinds := map[string]map[string]string{}
	known := scheme.AllKnownTypes()
	gvks := make([]schema.GroupVersionKind, 0, len(known))
	for gvk := range known {
		gvks = append(gvks, gvk)
	}
	sort.Slice(gvks, func(i, j int) bool { return gvks[i].String() < gvks[j].String() })
	for _, gvk := range gvks {
		t := known[gvk]
		if gvk.Version == runtime.APIVersionInternal || !reflect.PointerTo(t).Implements(protoMarshaler) {
			continue
		}
		apiVersion := gvk.GroupVersion().String()
		if kinds[apiVersion] == nil {
			kinds[apiVersion] = map[string]string{}
		}
		kinds[apiVersion][gvk.Kind] = g.message(t)
	}
	return schemaFile{Source: moduleVersions(), Kinds: kinds, Messages: g.messages}
}

type vector struct {
	Name string `json:"name"`
	// As Kubernetes' JSON serializer writes the object (nulls left out: they mean absent).
	JSON json.RawMessage `json:"json"`
	// The protobuf serializer's bytes, envelope included, base64.
	Protobuf string `json:"protobuf"`
}

// withoutNulls drops null members, which Go writes for zero times and nil slices without omitempty.
func withoutNulls(value any) any {
	switch v := value.(type) {
	case map[string]any:
		out := map[string]any{}
		for key, member := range v {
			if member != nil {
				out[key] = withoutNulls(member)
			}
		}
		return out
	case []any:
		for i := range v {
			v[i] = withoutNulls(v[i])
		}
		return v
	}
	return value
}

func canonicalJSON(object any) json.RawMessage {
	data, err := json.Marshal(object)
	if err != nil {
		fail("json: %v", err)
	}
	var generic any
	if err := json.Unmarshal(data, &generic); err != nil {
		fail("json: %v", err)
	}
	data, err = json.Marshal(withoutNulls(generic))
	if err != nil {
		fail("json: %v", err)
	}
	return data
}

func buildVectors(scheme *runtime.Scheme, samples string) []vector {
	codecs := serializer.NewCodecFactory(scheme)
	decoder := codecs.UniversalDeserializer()
	proto := protobuf.NewSerializer(scheme, scheme)
	files, err := filepath.Glob(filepath.Join(samples, "*.json"))
	if err != nil || len(files) == 0 {
		fail("no samples in %s", samples)
	}
	sort.Strings(files)
	var vectors []vector
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			fail("%v", err)
		}
		object, gvk, err := decoder.Decode(data, nil, nil)
		if err != nil {
			fail("%s: %v", file, err)
		}
		object.GetObjectKind().SetGroupVersionKind(*gvk)
		var encoded bytes.Buffer
		if err := proto.Encode(object, &encoded); err != nil {
			fail("%s: %v", file, err)
		}
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		vectors = append(vectors, vector{Name: name, JSON: canonicalJSON(object), Protobuf: base64.StdEncoding.EncodeToString(encoded.Bytes())})
		if gvk.Kind == "Pod" {
			vectors = append(vectors, watchEventVector(name, object, encoded.Bytes(), codecs, proto))
		}
	}
	return vectors
}

// watchEventVector is one frame's content of a protobuf watch, as the API server writes it: a
// WatchEvent in the object's group version whose object is the object's own protobuf bytes.
func watchEventVector(name string, object runtime.Object, objectBytes []byte, codecs serializer.CodecFactory, proto *protobuf.Serializer) vector {
	event := &metav1.WatchEvent{Type: "MODIFIED", Object: runtime.RawExtension{Raw: objectBytes}}
	encoder := codecs.WithoutConversion().EncoderForVersion(proto, object.GetObjectKind().GroupVersionKind().GroupVersion())
	var encoded bytes.Buffer
	if err := encoder.Encode(event, &encoded); err != nil {
		fail("watch event: %v", err)
	}
	return vector{
		Name:     name + "-watch-event",
		JSON:     json.RawMessage(fmt.Sprintf(`{"type":"MODIFIED","object":%s}`, canonicalJSON(object))),
		Protobuf: base64.StdEncoding.EncodeToString(encoded.Bytes()),
	}
}

func writeJSON(path string, value any) {
	data, err := json.MarshalIndent(value, "", " ")
	if err != nil {
		fail("%v", err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		fail("%v", err)
	}
}

func main() {
	schemaPath := flag.String("schema", "", "where to write the schema")
	vectorsPath := flag.String("vectors", "", "where to write the test vectors")
	samples := flag.String("samples", "samples", "the sample objects' directory")
	flag.Parse()
	if *schemaPath == "" || *vectorsPath == "" {
		fail("usage: go run . -schema <file> -vectors <file> [-samples <dir>]")
	}
	scheme := newScheme()
	writeJSON(*schemaPath, buildSchema(scheme))
	writeJSON(*vectorsPath, buildVectors(scheme, *samples))
}
