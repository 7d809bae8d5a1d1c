// Command kube-openapi writes the OpenAPI documents the embedded cluster publishes at /openapi/v2
// and /openapi/v3, for what it serves and nothing else:
//
//   - the built-in resources, from the documents the Kubernetes release it follows publishes
//     (api/openapi-spec of k8s.io/kubernetes), their paths narrowed to the served resources and
//     their schemas to those the paths reach;
//   - the custom resources, built from their CustomResourceDefinitions by the API server's own
//     builder (k8s.io/apiextensions-apiserver), as a real cluster builds them;
//   - /openapi/v2 also in the protobuf form client-go asks for (gnostic's OpenAPIv2 Document).
//
// Usage: go run . -served <served.json> -spec-dir <api/openapi-spec> -out <dir>
package main

import (
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	"google.golang.org/protobuf/proto"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/kube-openapi/pkg/spec3"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// served lists what the embedded cluster serves (written by scripts/generate-openapi.ts).
type served struct {
	BuiltIn []struct {
		Group    string `json:"group"`
		Version  string `json:"version"`
		Resource string `json:"resource"`
	} `json:"builtIn"`
	CustomResourceDefinitions []apiextensionsv1.CustomResourceDefinition `json:"customResourceDefinitions"`
}

// groupVersionPath is how discovery and /openapi/v3 name a group version: "api/v1", "apis/g/v".
func groupVersionPath(group, version string) string {
	if group == "" {
		return "api/" + version
	}
	return "apis/" + group + "/" + version
}

func main() {
	servedFile := flag.String("served", "", "what the embedded cluster serves (JSON)")
	specDir := flag.String("spec-dir", "", "k8s.io/kubernetes' api/openapi-spec directory")
	out := flag.String("out", "", "where to write openapi-v2.json and openapi-v3.json")
	flag.Parse()
	if *servedFile == "" || *specDir == "" || *out == "" {
		fail(fmt.Errorf("-served, -spec-dir and -out are required"))
	}
	var what served
	must(readJSON(*servedFile, &what))

	resources := map[string]map[string]bool{} // group version path → served resources
	for _, one := range what.BuiltIn {
		path := groupVersionPath(one.Group, one.Version)
		if resources[path] == nil {
			resources[path] = map[string]bool{}
		}
		resources[path][one.Resource] = true
	}

	v3 := map[string]any{}
	for path, names := range resources {
		file := filepath.Join(*specDir, "v3", strings.ReplaceAll(path, "/", "__")+"_openapi.json")
		var document map[string]any
		must(readJSON(file, &document))
		narrowPaths(document, "/"+path, names)
		pruneSchemas(document, "#/components/schemas/", []string{"components", "schemas"})
		v3[path] = document
	}
	crdV3 := map[string][]*spec3.OpenAPI{}
	var crdV2 []*spec.Swagger
	for i := range what.CustomResourceDefinitions {
		crd := &what.CustomResourceDefinitions[i]
		for _, version := range crd.Spec.Versions {
			if !version.Served {
				continue
			}
			document, err := builder.BuildOpenAPIV3(crd, version.Name, builder.Options{V2: false})
			must(err)
			path := groupVersionPath(crd.Spec.Group, version.Name)
			crdV3[path] = append(crdV3[path], document)
			swagger, err := builder.BuildOpenAPIV2(crd, version.Name, builder.Options{V2: true})
			must(err)
			crdV2 = append(crdV2, swagger)
		}
	}
	for path, documents := range crdV3 {
		merged, err := builder.MergeSpecsV3(documents...)
		must(err)
		v3[path] = roundTrip(merged)
	}
	// Each document is written as a string, with the hash the API server addresses it by: the
	// server then holds text to send, not an object graph to serialize again.
	published := map[string]map[string]string{}
	for path, document := range v3 {
		text := mustJSON(document)
		published[path] = map[string]string{"document": string(text), "hash": fmt.Sprintf("%X", sha512.Sum512(text))}
	}
	must(writeJSON(filepath.Join(*out, "openapi-v3.json"), published))

	var swagger map[string]any
	must(readJSON(filepath.Join(*specDir, "swagger.json"), &swagger))
	narrowV2Paths(swagger, resources)
	pruneSchemas(swagger, "#/definitions/", []string{"definitions"})
	var static spec.Swagger
	must(json.Unmarshal(mustJSON(swagger), &static))
	merged, err := builder.MergeSpecs(&static, crdV2...)
	must(err)
	v2JSON := mustJSON(merged)
	document, err := openapi_v2.ParseDocument(v2JSON)
	must(err)
	v2Protobuf, err := proto.Marshal(document)
	must(err)
	must(writeJSON(filepath.Join(*out, "openapi-v2.json"), map[string]string{"document": string(v2JSON), "protobufBase64": base64.StdEncoding.EncodeToString(v2Protobuf)}))
	paths := make([]string, 0, len(v3))
	for path := range v3 {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	fmt.Printf("wrote /openapi/v2 and /openapi/v3 for %s\n", strings.Join(paths, ", "))
}

// resourceOf names the resource a path under a group version is about ("" for the root).
func resourceOf(rest string) string {
	segments := strings.Split(strings.Trim(rest, "/"), "/")
	if len(segments) > 0 && segments[0] == "watch" {
		segments = segments[1:]
	}
	if len(segments) >= 3 && segments[0] == "namespaces" && segments[1] == "{namespace}" {
		return segments[2]
	}
	if len(segments) == 0 {
		return ""
	}
	return segments[0]
}

// narrowPaths keeps the group version's root and the paths of the served resources.
func narrowPaths(document map[string]any, root string, names map[string]bool) {
	paths, _ := document["paths"].(map[string]any)
	for path := range paths {
		if !strings.HasPrefix(path, root) {
			delete(paths, path)
			continue
		}
		if resource := resourceOf(strings.TrimPrefix(path, root)); resource != "" && !names[resource] {
			delete(paths, path)
		}
	}
}

// narrowV2Paths keeps, of every group version's paths in one document, those of the served resources.
func narrowV2Paths(document map[string]any, resources map[string]map[string]bool) {
	paths, _ := document["paths"].(map[string]any)
	for path := range paths {
		kept := false
		for root, names := range resources {
			prefix := "/" + root
			if path == prefix+"/" || (strings.HasPrefix(path, prefix+"/") && names[resourceOf(strings.TrimPrefix(path, prefix))]) {
				kept = true
				break
			}
		}
		if !kept {
			delete(paths, path)
		}
	}
}

// pruneSchemas drops the schemas no kept path reaches, directly or through other schemas.
func pruneSchemas(document map[string]any, prefix string, at []string) {
	schemas := document
	for _, key := range at {
		schemas, _ = schemas[key].(map[string]any)
	}
	reached := map[string]bool{}
	var visit func(value any)
	visit = func(value any) {
		switch typed := value.(type) {
		case map[string]any:
			for key, inner := range typed {
				if ref, ok := inner.(string); key == "$ref" && ok && strings.HasPrefix(ref, prefix) {
					name := strings.TrimPrefix(ref, prefix)
					if !reached[name] {
						reached[name] = true
						visit(schemas[name])
					}
					continue
				}
				visit(inner)
			}
		case []any:
			for _, inner := range typed {
				visit(inner)
			}
		}
	}
	visit(document["paths"])
	for name := range schemas {
		if !reached[name] {
			delete(schemas, name)
		}
	}
}

func roundTrip(value any) map[string]any {
	var out map[string]any
	must(json.Unmarshal(mustJSON(value), &out))
	return out
}

func readJSON(file string, into any) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, into)
}

func writeJSON(file string, value any) error {
	return os.WriteFile(file, append(mustJSON(value), '\n'), 0o644)
}

func mustJSON(value any) []byte {
	data, err := json.Marshal(value)
	must(err)
	return data
}

func must(err error) {
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "kube-openapi:", err)
	os.Exit(1)
}
