{{/* Names and labels shared by every object of the release. */}}

{{- define "berth.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "berth.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "berth.labels" -}}
{{ include "berth.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "berth.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "berth.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The gateway defaults as Berth's config file: server.<key>, leaving out a storage class that is null (the cluster default), and the managed namespaces (BERTH_NAMESPACES, not a gateway default). */}}
{{- define "berth.configFile" -}}
{{- $server := dict -}}
{{- range $key, $value := omit .Values.server "namespaces" -}}
{{- if not (kindIs "invalid" $value) -}}
{{- $_ := set $server $key $value -}}
{{- end -}}
{{- end -}}
{{- /* Quantities as strings, the way Berth reads them: `--set limits.maxCpu=4` gives a number. */ -}}
{{- $limits := deepCopy .Values.limits -}}
{{- range $key := list "maxCpu" "maxMemory" "maxClaimSize" -}}
{{- $_ := set $limits $key (toString (get $limits $key)) -}}
{{- end -}}
{{- toYaml (dict "server" $server "limits" $limits) -}}
{{- end -}}

{{/* The URL people reach Berth at: auth.publicUrl, else the ingress's host. The schema refuses neither. */}}
{{- define "berth.publicUrl" -}}
{{- if .Values.auth.publicUrl -}}
{{- .Values.auth.publicUrl | trimSuffix "/" -}}
{{- else if .Values.ingress.enabled -}}
{{- printf "%s://%s" (ternary "https" "http" (not (empty .Values.ingress.tlsSecretName))) .Values.ingress.host -}}
{{- end -}}
{{- end -}}

{{- define "berth.sessionSecretName" -}}
{{- default (printf "%s-session" (include "berth.fullname" .)) .Values.auth.session.existingSecret -}}
{{- end -}}

{{/* Sign-in and the managed namespaces as Berth's environment variables; an empty value sets none, so Berth's own default applies. */}}
{{- define "berth.authEnv" -}}
{{- $auth := .Values.auth -}}
- name: BERTH_AUTH_MODE
  value: {{ $auth.mode | quote }}
{{- with include "berth.publicUrl" . }}
- name: BERTH_PUBLIC_URL
  value: {{ . | quote }}
{{- end }}
{{- with $auth.allowedHosts }}
- name: BERTH_ALLOWED_HOSTS
  value: {{ join "," . | quote }}
{{- end }}
- name: BERTH_SESSION_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "berth.sessionSecretName" . }}
      key: {{ $auth.session.secretKey }}
{{- with $auth.session.maxAgeSeconds }}
- name: BERTH_SESSION_MAX_AGE_SECONDS
  value: {{ . | int64 | quote }}
{{- end }}
{{- if eq $auth.mode "oidc" }}
{{- with $auth.oidc }}
- name: BERTH_OIDC_ISSUER
  value: {{ .issuer | quote }}
{{- with .clientId }}
- name: BERTH_OIDC_CLIENT_ID
  value: {{ . | quote }}
{{- end }}
{{- if .existingSecret }}
- name: BERTH_OIDC_CLIENT_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ .existingSecret }}
      key: {{ .secretKey }}
{{- end }}
{{- with .scopes }}
- name: BERTH_OIDC_SCOPES
  value: {{ join "," . | quote }}
{{- end }}
{{- with .usernameClaim }}
- name: BERTH_OIDC_USERNAME_CLAIM
  value: {{ . | quote }}
{{- end }}
{{- with .usernamePrefix }}
- name: BERTH_OIDC_USERNAME_PREFIX
  value: {{ . | quote }}
{{- end }}
{{- with .groupsClaim }}
- name: BERTH_OIDC_GROUPS_CLAIM
  value: {{ . | quote }}
{{- end }}
{{- with .groupsPrefix }}
- name: BERTH_OIDC_GROUPS_PREFIX
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- end }}
{{- if eq $auth.mode "proxy" }}
{{- with $auth.proxy }}
- name: BERTH_PROXY_TRUSTED_ADDRESSES
  value: {{ join "," .trustedAddresses | quote }}
{{- with .userHeader }}
- name: BERTH_PROXY_USER_HEADER
  value: {{ . | quote }}
{{- end }}
{{- with .groupHeader }}
- name: BERTH_PROXY_GROUP_HEADER
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- end }}
{{- with .Values.server.namespaces }}
- name: BERTH_NAMESPACES
  value: {{ join "," . | quote }}
{{- end }}
{{- end -}}
