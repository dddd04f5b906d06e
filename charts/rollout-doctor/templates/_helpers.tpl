{{/*
Names. With the release named rollout-doctor (README, scripts/render-deploy.ts) every
object keeps the name deploy/ has always used: rollout-doctor-app, rollout-doctor-worker,
rollout-doctor-slack, ...
*/}}
{{- define "rollout-doctor.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "rollout-doctor.appName" -}}{{ include "rollout-doctor.fullname" . }}-app{{- end -}}
{{- define "rollout-doctor.workerName" -}}{{ include "rollout-doctor.fullname" . }}-worker{{- end -}}
{{- define "rollout-doctor.redisName" -}}{{ default (printf "%s-redis" (include "rollout-doctor.fullname" .)) .Values.redis.bundled.name }}{{- end -}}
{{- define "rollout-doctor.appSecret" -}}{{ default (printf "%s-slack" (include "rollout-doctor.fullname" .)) .Values.app.secretName }}{{- end -}}
{{- define "rollout-doctor.workerSecret" -}}{{ default (printf "%s-worker-keys" (include "rollout-doctor.fullname" .)) .Values.worker.secretName }}{{- end -}}
{{- /* Whether anything in this release speaks to Redis: the app, the worker, or a webhook that announces. */}}
{{- define "rollout-doctor.usesRedis" -}}
{{- if or .Values.app.enabled .Values.worker.enabled (and .Values.admission.enabled .Values.admission.announce.enabled) -}}true{{- end -}}
{{- end -}}
{{- define "rollout-doctor.redisSecret" -}}
{{- if eq .Values.redis.mode "bundled" -}}
{{- default (printf "%s-redis" (include "rollout-doctor.fullname" .)) .Values.redis.bundled.passwordSecret -}}
{{- else -}}
{{- .Values.redis.external.passwordSecret -}}
{{- end -}}
{{- end -}}
{{- define "rollout-doctor.policyConfigMap" -}}{{ default (printf "%s-policy" (include "rollout-doctor.fullname" .)) .Values.app.policyConfigMap }}{{- end -}}
{{/* The worker's identity as the API server sees it (admission policies match on it). */}}
{{- define "rollout-doctor.workerUsername" -}}system:serviceaccount:{{ .Release.Namespace }}:{{ include "rollout-doctor.workerName" . }}{{- end -}}

{{/*
Labels: ["component", root, object name]. The selector is app.kubernetes.io/name alone,
as deploy/ has always had it (a Deployment's selector cannot change on upgrade); the
name already carries the release's fullname.
*/}}
{{- define "rollout-doctor.labels" -}}
{{- $root := index . 1 -}}
app.kubernetes.io/name: {{ index . 2 }}
app.kubernetes.io/component: {{ index . 0 }}
app.kubernetes.io/part-of: rollout-doctor
{{- if $root.Values.helmLabels }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" $root.Chart.Name $root.Chart.Version }}
{{- end }}
{{- end -}}

{{- define "rollout-doctor.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ default .Chart.AppVersion .Values.image.tag }}
{{- end -}}
{{- end -}}

{{/*
REDIS_PASSWORD from the Secret, then REDIS_URL using it: Kubernetes expands $(VAR) of a
variable defined earlier in the list, so the password never appears in the pod spec.
Argument: [root, "app" | "worker"].
*/}}
{{- define "rollout-doctor.redisEnv" -}}
{{- $root := index . 0 -}}
{{- $who := index . 1 -}}
- name: REDIS_PASSWORD
  valueFrom:
    secretKeyRef: { name: {{ include "rollout-doctor.redisSecret" $root }}, key: {{ $who }}-password }
{{- with $root.Values.redis.wait }}
{{- if not (kindIs "invalid" .replicas) }}
- name: REDIS_WAIT_REPLICAS
  value: {{ .replicas | quote }}
{{- end }}
{{- if .timeoutMs }}
- name: REDIS_WAIT_TIMEOUT_MS
  value: {{ .timeoutMs | quote }}
{{- end }}
{{- if .journal }}
# Writes no replica confirmed yet, kept across a container restart (the emptyDir below).
- name: REDIS_WAIT_JOURNAL_DIR
  value: /var/lib/rollout-doctor/replication-journal
{{- end }}
{{- end }}
{{- if eq $root.Values.redis.mode "bundled" }}
- name: REDIS_URL
  value: redis://{{ $who }}:$(REDIS_PASSWORD)@{{ include "rollout-doctor.redisName" $root }}:6379
{{- else }}
{{- $url := $root.Values.redis.external.url }}
{{- $scheme := regexFind "^rediss?(\\+sentinel)?://" $url }}
- name: REDIS_URL
  value: {{ printf "%s%s:$(REDIS_PASSWORD)@%s" $scheme (index $root.Values.redis.external.users $who) (trimPrefix $scheme $url) }}
{{- with $root.Values.redis.external.sentinel }}
{{- if .passwordSecret }}
- name: REDIS_SENTINEL_PASSWORD
  valueFrom:
    secretKeyRef: { name: {{ .passwordSecret }}, key: {{ .passwordKey }} }
{{- end }}
{{- if .username }}
- name: REDIS_SENTINEL_USERNAME
  value: {{ .username | quote }}
{{- end }}
{{- if .tls }}
- name: REDIS_SENTINEL_TLS
  value: "true"
{{- end }}
{{- end }}
{{- if $root.Values.redis.external.caSecret.name }}
- name: NODE_EXTRA_CA_CERTS
  value: /etc/rollout-doctor/redis-ca/{{ $root.Values.redis.external.caSecret.key }}
{{- end }}
{{- end }}
{{- end -}}

{{- define "rollout-doctor.redisCaVolume" -}}
{{- if .Values.redis.wait.journal }}
- name: replication-journal
  emptyDir: { sizeLimit: 16Mi }
{{- end }}
{{- if and (eq .Values.redis.mode "external") .Values.redis.external.caSecret.name }}
- name: redis-ca
  secret:
    secretName: {{ .Values.redis.external.caSecret.name }}
    items: [{ key: {{ .Values.redis.external.caSecret.key }}, path: {{ .Values.redis.external.caSecret.key }} }]
{{- end }}
{{- end -}}

{{- define "rollout-doctor.redisCaMount" -}}
{{- if .Values.redis.wait.journal }}
- name: replication-journal
  mountPath: /var/lib/rollout-doctor/replication-journal
{{- end }}
{{- if and (eq .Values.redis.mode "external") .Values.redis.external.caSecret.name }}
- name: redis-ca
  mountPath: /etc/rollout-doctor/redis-ca
  readOnly: true
{{- end }}
{{- end -}}

{{/* One `name: value` entry per non-empty setting of an env map (empty: the program's default). */}}
{{- define "rollout-doctor.envMap" -}}
{{- range $name, $value := . }}
{{- if ne (toString $value) "" }}
- name: {{ $name }}
  value: {{ toString $value | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* A secretKeyRef entry: [secret, key, optional]. */}}
{{/* The admission webhook's key Secret (admission.announce.secretName). */}}
{{- define "rollout-doctor.admissionSecret" -}}
{{- default (printf "%s-admission-keys" (include "rollout-doctor.fullname" .)) .Values.admission.announce.secretName -}}
{{- end -}}

{{- define "rollout-doctor.secretEnv" -}}
- name: {{ index . 1 }}
  valueFrom:
    secretKeyRef: { name: {{ index . 0 }}, key: {{ index . 1 }}{{ if index . 2 }}, optional: true{{ end }} }
{{- end -}}

{{/*
Whether the API server serves ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1,
GA in Kubernetes 1.30). Against a cluster, Helm lists each served kind as
"group/version/Kind" (helm pkg/action/action.go, getVersionSet: path.Join(GroupVersion,
Kind) for every discovered resource), so the kind itself is checked. `helm template`
without a cluster knows only group-versions (no "apps/v1/Deployment" either): there the
Kubernetes version decides (--kube-version, default the client's).
*/}}
{{- define "rollout-doctor.admissionServed" -}}
{{- if .Capabilities.APIVersions.Has "apps/v1/Deployment" -}}
{{- if .Capabilities.APIVersions.Has "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy" }}true{{ end -}}
{{- else if semverCompare ">=1.30-0" .Capabilities.KubeVersion.Version -}}
true
{{- end -}}
{{- end -}}

{{/* The admission policy is rendered: wanted, and the server serves it (else the install fails: validate). */}}
{{- define "rollout-doctor.admissionOn" -}}
{{- if and .Values.worker.enabled .Values.admissionPolicy.enabled (include "rollout-doctor.admissionServed" .) }}true{{ end -}}
{{- end -}}
