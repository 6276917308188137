export interface paths {
    "/api/audio/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Tracks matching a title (and artist), best match first.
         * @description Each returned key is remembered, so that its analysis can be asked for next. Pages with offset; the Link header names the next and previous pages.
         */
        get: operations["search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audio/analysis/{trackKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The analysis of a track: stored, or computed from the audio search found. */
        get: operations["analysis"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audio/analysis/{trackKey}/timeline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Beats, bars and sections of a track (found or computed as for its analysis). */
        get: operations["timeline"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audio/analyses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Stored analyses of up to 100 keys, in the order asked, null where a key has none. Starts no analysis. */
        get: operations["analyses"];
        put?: never;
        /**
         * Analyses the audio a client brings: a file (the body, or multipart/form-data), or the URL of one (JSON). Any key may.
         * @description The track is named by artist and track, else by the file’s tags, else by its file name (“Artist - Title.mp3”; for a URL, the last segment of its path). Its trackKey is the contract’s, so every other route works on it; the same bytes are analysed once. The audio is recognised by its bytes (415 otherwise), limited to UPLOAD_MAX_BYTES (413, nothing past the limit kept), streamed to a temporary file and removed when analysed. A URL is fetched over http or https from a public address only (every redirect checked; 422 URL_REFUSED otherwise), within UPLOAD_FETCH_TIMEOUT_MS (422 URL_UNREACHABLE, as for a remote that answers other than 2xx or breaks off).
         */
        post: operations["analyseUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audio/artwork/{trackKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Cover art of a track: the picture a source holds, or a placeholder generated for the track.
         * @description The thumbnailUrl of a search result carries a signature (sig) and needs no key. Only PNG, JPEG, GIF, WebP or AVIF pictures are served, typed by their bytes. A track without a picture, or whose stored picture is not one of those, gets its placeholder: a small PNG whose colours come from the track key, the same every time.
         */
        get: operations["artwork"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audio/similar/{trackKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The stored tracks nearest to a stored track, nearest first: by descriptors (the default) or by sound. Starts no analysis.
         * @description by=descriptors: a weighted distance over tempo, key, mode, descriptors and moods (docs/API.md, "Similarity"). by=sound: the cosine distance of the tracks’ sound embeddings (docs/SIMILARITY.md); 404 NOT_FOUND when the track’s analysis has none of this server’s kinds (`signal/4` from trackgraph-engine/29 on; `musicnn/2` (MODELS_DIR) from 31 on).
         */
        get: operations["similar"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audio/path": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A path by sound from one stored track to another: steps distinct stored tracks between them, both ends included.
         * @description Each step is the stored track nearest its place on the straight line between the two sound embeddings that the path does not hold yet (docs/SIMILARITY.md).
         */
        get: operations["soundPath"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/playlists/m3u": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Any list of stored tracks (a page, recommendations …) as an M3U8 playlist of the music folder’s files. */
        get: operations["playlistOfKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/playlists": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Saves a list of stored tracks as <name>.m3u8 in the music folder, or as a playlist of the Subsonic server (admin keys only); the same name again replaces it. */
        post: operations["savePlaylist"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every key, those of API_KEYS and ADMIN_API_KEYS first (admin keys only). Never a key itself. */
        get: operations["apiKeys"];
        put?: never;
        /** Makes a key (admin keys only). The key is in this answer only; only its hash is stored. */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revokes a stored key (admin keys only): every server refuses it from this answer on. Revoking a revoked key changes nothing. */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/reanalyse": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Starts re-analysing the stored analyses an older engine (or another method) made (admin keys only); answers the running one if there is one.
         * @description Each is analysed again from the audio source it came from and replaced atomically; every server drops its cached copies and ETags change. A track whose audio is gone keeps its analysis and is listed under unavailable. The job runs in this server; ask it for the progress.
         */
        post: operations["startReanalysis"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/reanalyse/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The progress of a re-analysis this server runs or ran (admin keys only; the last 10 finished are kept). */
        get: operations["reanalysis"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Requests and analyses per key per UTC day, oldest day first: every key’s to an admin key, its own to a read key.
         * @description Counts reach the store every USAGE_FLUSH_MS (30 s) from each server; this server’s own counts are included at once.
         */
        get: operations["usage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The webhooks of the calling key, oldest first (never their secrets). */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Makes a webhook for the calling key; its signing secret is in this answer only.
         * @description The URL must be http or https and resolve to a public address (OUTBOUND_ALLOW_PRIVATE lifts this on closed networks); at most 10 webhooks per key.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Deletes a webhook of the calling key, with its delivery log. */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sends a webhook.test event now (once, no retries); a success enables a disabled webhook again. */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The delivery log of a webhook of the calling key, newest first. */
        get: operations["webhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audio-features/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Audio features of one track in Spotify’s shape: stored, or computed from the audio its id leads to.
         * @description An id is a trackKey, `isrc:<ISRC>` (looked up at Deezer and MusicBrainz when enabled) or `spotify:track:<id>`. As the contract’s analysis route, an analysis not stored yet is started, and 202 with Retry-After answers while it runs.
         */
        get: operations["spotifyAudioFeatures"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audio-analysis/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Audio analysis of one track in Spotify’s shape: bars, beats, tatums, sections and segments of the analysed window.
         * @description Ids, analysis on demand and 202 as for /v1/audio-features/{id}.
         */
        get: operations["spotifyAudioAnalysis"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audio-features": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Audio features of up to 100 tracks in Spotify’s shape, in the order asked, null where an id has no stored analysis. Starts no analysis. */
        get: operations["spotifyAudioFeaturesMany"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/recommendations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stored analyses nearest to targets (given, or the seeds’ mean) within the min_/max_ ranges, nearest first; the seeds excluded. Starts no analysis.
         * @description Every top-level descriptor, tempo, key, mode, loudness, time_signature and duration_ms has min_, max_ and target_. At least one seed (a track or a genre) or one of those is needed. The distance is in docs/API.md, "Spotify’s shape: /v1".
         */
        get: operations["spotifyRecommendations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/recommendations/available-genre-seeds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The genre seeds seed_genres takes: the auto-tagger’s tags but its eras and voices, in Spotify’s spelling. */
        get: operations["spotifyAvailableGenreSeeds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        UploadForm: {
            /** @description The audio file (one). */
            file: string;
            /** @description The artist to file it under. */
            artist?: string;
            /** @description The title to file it under. */
            track?: string;
        };
        AnalyseUrlBody: {
            /**
             * @description An http or https URL of an audio file, at a public address; no credentials.
             * @example https://example.org/music/Artist%20-%20Song.mp3
             */
            url: string;
            /** @description The artist to file it under. */
            artist?: string;
            /** @description The title to file it under. */
            track?: string;
        };
        /** @description The playlist to save. */
        SavePlaylist: {
            /**
             * @description The playlist's name: 1–100 characters; in the music folder it names the file (no / \ : * ? " < > |).
             * @example Late night
             */
            name: string;
            /** @description The tracks, in order: a similar answer, a path, recommendations, a page. */
            trackKeys: string[];
            /**
             * @description library (the default): an M3U8 file in the music folder; subsonic: a playlist of the Subsonic server (SOURCES=subsonic), its songs found by the ids kept with their analyses, else by name.
             * @default library
             * @enum {string}
             */
            target: "library" | "subsonic";
        };
        /** @description The key to make. */
        CreateApiKey: {
            /**
             * @description What the key is for: 1–100 characters (whitespace runs collapsed), no control characters.
             * @example mobile app
             */
            name: string;
            /**
             * @description read (the default): the API. admin: also managing keys, webhooks and every key’s usage.
             * @default read
             * @enum {string}
             */
            scope: "read" | "admin";
            /**
             * @description From when the key is refused: a day (2031-01-01: from the start of that day, UTC) or an ISO-8601 date and time with its offset (2031-01-01T12:00:00Z). In the future. Absent or null: never.
             * @example 2031-01-01
             */
            expiresAt?: string | null;
        };
        /**
         * @description Every error has this one shape.
         * @example {
         *       "success": false,
         *       "error": {
         *         "code": "INVALID_ARGUMENT",
         *         "message": "track is required"
         *       }
         *     }
         */
        Error: {
            /** @constant */
            success: false;
            error: {
                code: components["schemas"]["ErrorCode"];
                /** @description What went wrong, for a person to read. */
                message: string;
            };
        };
        /**
         * @description A protocol-neutral code; README lists when each is given.
         * @enum {string}
         */
        ErrorCode: "INVALID_ARGUMENT" | "UNAUTHENTICATED" | "FORBIDDEN" | "TRACK_NOT_FOUND" | "NOT_FOUND" | "AUDIO_UNDECODABLE" | "UNSUPPORTED_MEDIA" | "PAYLOAD_TOO_LARGE" | "URL_REFUSED" | "URL_UNREACHABLE" | "NO_AUDIO_SOURCE" | "RATE_LIMITED" | "UPLOAD_QUOTA_EXCEEDED" | "UPSTREAM_UNAVAILABLE" | "UPSTREAM_INVALID" | "UPSTREAM_TIMEOUT" | "SERVICE_UNAVAILABLE" | "ANALYSIS_TIMEOUT" | "INTERNAL";
        SearchResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["SearchResult"][];
            /** @description Present only when some source failed: the results hold what the others found, so an empty `data` may not mean "no such track". */
            failedSources?: components["schemas"]["SourceFailure"][];
        };
        /**
         * @description A track matching a search.
         * @example {
         *       "trackName": "Money",
         *       "artist": "Pink Floyd",
         *       "thumbnailUrl": "http://127.0.0.1:4000/api/audio/artwork/bc24aaa5a97c70ed?sig=Yk3Jf0v2Qm8",
         *       "trackKey": "bc24aaa5a97c70ed",
         *       "match_score": 1
         *     }
         */
        SearchResult: {
            /** @description Title of the track. */
            trackName: string;
            /** @description Artist of the track. */
            artist: string;
            /**
             * Format: uri
             * @description Cover-art URL (http or https), loadable by an <img> without a key: the source’s picture, or a placeholder generated for the track (a PNG) when it has none.
             */
            thumbnailUrl: string;
            trackKey: components["schemas"]["TrackKey"];
            /** @description How closely the result matches the query, in [0, 1]; larger is closer. */
            match_score: number;
        };
        /** @description A source that could not be searched for this query. */
        SourceFailure: {
            /** @description The source’s name, as in SOURCES (deezer, musicbrainz, upstream). */
            source: string;
            /**
             * @description Why: UPSTREAM_UNAVAILABLE, UPSTREAM_TIMEOUT, UPSTREAM_INVALID, RATE_LIMITED …
             * @enum {string}
             */
            code: "INVALID_ARGUMENT" | "UNAUTHENTICATED" | "FORBIDDEN" | "TRACK_NOT_FOUND" | "NOT_FOUND" | "AUDIO_UNDECODABLE" | "UNSUPPORTED_MEDIA" | "PAYLOAD_TOO_LARGE" | "URL_REFUSED" | "URL_UNREACHABLE" | "NO_AUDIO_SOURCE" | "RATE_LIMITED" | "UPLOAD_QUOTA_EXCEEDED" | "UPSTREAM_UNAVAILABLE" | "UPSTREAM_INVALID" | "UPSTREAM_TIMEOUT" | "SERVICE_UNAVAILABLE" | "ANALYSIS_TIMEOUT" | "INTERNAL";
            /** @description What went wrong, in words for a person (an error this server knows says what it was; anything unexpected is masked, its details only in the server's log). Not for matching: read `code`. */
            message: string;
        };
        AnalysisResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["TrackAnalysis"];
        };
        /**
         * @description The analysis of one track (the contract object). docs/FEATURES.md says how each field is measured.
         * @example {
         *       "artist": "Pink Floyd",
         *       "trackKey": "bc24aaa5a97c70ed",
         *       "trackName": "Money",
         *       "duration_ms": 382000,
         *       "tempo": 122.4,
         *       "key": 11,
         *       "mode": 0,
         *       "timeSignature": 7,
         *       "energy": 0.61,
         *       "liveness": 0.12,
         *       "danceability": 0.55,
         *       "instrumentalness": 0.3,
         *       "speechiness": 0.05,
         *       "acousticness": 0.25,
         *       "valence": 0.48,
         *       "arousal": 0.57,
         *       "approachability": 0.64,
         *       "engagement": 0.58,
         *       "mood": {
         *         "happy": 0.41,
         *         "sad": 0.33,
         *         "relaxed": 0.29,
         *         "aggressive": 0.22
         *       },
         *       "keyString": "B minor",
         *       "meta": {
         *         "artist": "Pink Floyd",
         *         "track": "Money"
         *       }
         *     }
         */
        TrackAnalysis: {
            artist: string;
            trackKey: components["schemas"]["TrackKey"];
            trackName: string;
            duration_ms: number;
            /** @description Beats per minute; 0 when no pulse was found. */
            tempo: number;
            /** @description Pitch class 0–11 (0 = C, 9 = A), of the whole file (docs/FEATURES.md, "Key and mode"). */
            key: number;
            /** @description 1 = major, 0 = minor. */
            mode: number;
            /** @description Beats per bar. */
            timeSignature: number;
            /** @description Perceived intensity: loud, dense, distorted music reads high, quiet sparse music low. */
            energy: number;
            /** @description Noise and reverberation between notes, as an audience and a room leave them: the likelihood of a live recording. */
            liveness: number;
            /** @description Hits that strike and a level that pulses rather than swells, energy in the bass and the treble rather than the mid-range, drums on the beat, a loud master and few held notes. */
            danceability: number;
            /** @description Absence of voice: sung or spoken vocals lower it; above 0.5 probably instrumental. */
            instrumentalness: number;
            /** @description Presence of spoken words: above 0.66 probably speech alone, below 0.33 music. */
            speechiness: number;
            /** @description Confidence that the track is acoustic: quiet, clean, held notes read high; loud, distorted, electronic sound low. */
            acousticness?: number;
            /** @description Musical positiveness as listeners judge it: the probability that people would place the track among happy, excited, content or serene music rather than angry, tense, sad or gloomy music (fitted on people's labels). */
            valence: number;
            /** @description Activation: loudness, distortion's grit, the density of onsets, a level that flickers fast, tempo, and energy in the bass and the treble rather than the mid-range. */
            arousal: number;
            /** @description How easy the track is to listen to: a clear key, a regular moderate beat, a clean sound. */
            approachability: number;
            /** @description How well the track may hold attention: a pulse that carries and a level that changes. */
            engagement: number;
            mood: components["schemas"]["Mood"];
            /** @description "<note> <major|minor>". */
            keyString: string;
            /** @description The artist and title again, as the contract duplicates them. */
            meta: {
                artist: string;
                track: string;
            };
            /** @description Additive: the tempi the level choice ranked next (half or double, mostly), most probable first; present when the analysis recorded them (engine 11 on). */
            tempoAlternatives?: {
                /** @description Beats per minute. */
                tempo: number;
                /** @description The level’s probability among the candidates (docs/FEATURES.md, "Tempo alternatives"). */
                confidence: number;
            }[];
            /** @description Additive: the frequency the recording tunes A4 to, Hz (docs/FEATURES.md, "Tuning"); present on analyses from engine 23 on. */
            tuningHz?: number;
            /** @description Additive: the MSD auto-tagger’s 50 tags (genres, eras, voices, instruments, moods) with their probabilities, most probable first; present when trained models made the analysis (MODELS_DIR). */
            tags?: {
                /** @description The tag, as the tagger names it (e.g. "rock", "female vocalists", "80s"). */
                name: string;
                /** @description The tagger’s probability of the tag, 0–1. */
                probability: number;
            }[];
        };
        /**
         * @description Mood scores, each in [0, 1].
         * @example {
         *       "happy": 0.41,
         *       "sad": 0.33,
         *       "relaxed": 0.29,
         *       "aggressive": 0.22
         *     }
         */
        Mood: {
            /** @description Positive and active: loud, rhythmic songs in a clear key whose chords and drums strike and whose arrangement sounds many notes at once read high, major more than minor; quiet, sparse music low. */
            happy: number;
            /** @description Negative and calm: slow, quiet, sparse music whose level swells and fades reads high, minor more than major. */
            sad: number;
            /** @description Calm: dark, quiet, dynamic music with clean notes reads high, bright loud compressed music low; distortion alone lowers it a little. */
            relaxed: number;
            /** @description Loud, dense, fast and harsh, its level flickering and its energy in the bass and the treble: metal and hard electronic music read high, quiet music near 0. */
            aggressive: number;
        };
        /**
         * @description The analysis is being computed: ask again after retryAfter seconds.
         * @example {
         *       "success": true,
         *       "data": null,
         *       "status": "queued",
         *       "queuePosition": 0,
         *       "retryAfter": 5
         *     }
         */
        AnalysisPending: {
            /** @constant */
            success: true;
            data: null;
            /** @enum {string} */
            status: "queued" | "processing";
            queuePosition: number;
            /** @description Seconds; also in the Retry-After header. */
            retryAfter: number;
        };
        TimelineResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Timeline"];
        };
        /** @description Beats, bars and sections of the analysed window (docs/FEATURES.md, "Timeline"), seconds from the start of the file. */
        Timeline: {
            beats: components["schemas"]["TimeInterval"][];
            bars: components["schemas"]["TimeInterval"][];
            sections: components["schemas"]["Section"][];
            trackKey: components["schemas"]["TrackKey"];
            /** @description Duration of the whole file, ms. */
            duration_ms: number;
        };
        /** @description A span of the file, with how sure the engine is of it. */
        TimeInterval: {
            /** @description Seconds from the start of the file. */
            start: number;
            /** @description Seconds. */
            duration: number;
            /** @description How sure the engine is of it, in [0, 1]. */
            confidence: number;
        };
        /** @description A section: a span of similar level, with its own loudness, tempo, key and mode. */
        Section: {
            /** @description Seconds from the start of the file. */
            start: number;
            /** @description Seconds. */
            duration: number;
            /** @description How sure the engine is of it, in [0, 1]. */
            confidence: number;
            /** @description Integrated loudness of the section, LUFS. */
            loudness: number;
            /** @description Beats per minute in the section. */
            tempo: number;
            tempoConfidence: number;
            /** @description Pitch class 0–11 of the section. */
            key: number;
            keyConfidence: number;
            /** @description 1 = major, 0 = minor. */
            mode: number;
            modeConfidence: number;
        };
        AnalysesResponse: {
            /** @constant */
            success: true;
            data: (components["schemas"]["TrackAnalysis"] | null)[];
        };
        UploadAnalysisResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["TrackAnalysis"];
        };
        UploadPending: {
            /** @constant */
            success: true;
            data: null;
            /** @enum {string} */
            status: "queued" | "processing";
            queuePosition: number;
            /** @description Seconds; also in the Retry-After header. */
            retryAfter: number;
            trackKey: components["schemas"]["TrackKey"];
        };
        SimilarResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["NearTrack"][];
        };
        /** @description A stored analysis and its distance: in feature space (by=descriptors), or cosine (by sound: 0 the same sound, 1 unrelated). */
        NearTrack: components["schemas"]["TrackAnalysis"] & {
            /** @description From the track asked about (similar), or from the step before (a path, 0 for the first). */
            distance: number;
        };
        PathResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["NearTrack"][];
        };
        ReplacedPlaylistResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["SavedPlaylist"];
        };
        SavedPlaylist: {
            /** @enum {string} */
            target: "library" | "subsonic";
            name: string;
            /** @description target library: the file written, relative to the music folder (<name>.m3u8). */
            file?: string;
            /** @description target subsonic: the server’s id of the playlist. */
            playlistId?: string;
            listed: number;
            /** @description Tracks left out: not stored, or not files of the music folder (library), or songs the server does not have (subsonic). */
            skipped: number;
            /** @description A playlist of that name was there and was replaced. */
            replaced: boolean;
        };
        SavedPlaylistResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["SavedPlaylist"];
        };
        CreatedApiKeyResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["CreatedApiKey"];
        };
        /**
         * @description A key just made, with the key itself: store it now.
         * @example {
         *       "id": "3f9a1c2b7d4e",
         *       "name": "mobile app",
         *       "scope": "read",
         *       "key": "tg_8kQ2…",
         *       "createdAt": "2030-01-01T09:30:00.000Z",
         *       "expiresAt": "2031-01-01T00:00:00.000Z"
         *     }
         */
        CreatedApiKey: {
            id: string;
            name: string;
            scope: components["schemas"]["ApiKeyScope"];
            /** @description The key: shown in this answer only (only its hash is stored). Send it as "Authorization: Bearer <key>". */
            key: string;
            /**
             * Format: date-time
             * @description When it was made.
             * @example 2030-01-01T00:00:00.000Z
             */
            createdAt: string;
            expiresAt: string | null;
        };
        /**
         * @description read: the API. admin: the API, and managing keys, webhooks and every key’s usage.
         * @enum {string}
         */
        ApiKeyScope: "read" | "admin";
        ApiKeysResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["ApiKey"][];
        };
        /**
         * @description An API key as it is listed: never the key itself.
         * @example {
         *       "id": "3f9a1c2b7d4e",
         *       "name": "mobile app",
         *       "scope": "read",
         *       "source": "api",
         *       "createdAt": "2030-01-01T09:30:00.000Z",
         *       "expiresAt": null,
         *       "lastUsedAt": "2030-01-02T17:04:12.512Z",
         *       "revokedAt": null
         *     }
         */
        ApiKey: {
            /** @description The key’s id ("env:N" and "env-admin:N" for keys of API_KEYS and ADMIN_API_KEYS); never the key. */
            id: string;
            name: string;
            scope: components["schemas"]["ApiKeyScope"];
            /**
             * @description Where the key comes from: an environment list (revoked only by removing it there), or the database (the CLI, the API, the first start).
             * @enum {string}
             */
            source: "API_KEYS" | "ADMIN_API_KEYS" | "cli" | "api" | "first-run";
            /**
             * Format: date-time
             * @description When it was made; for a key of the environment, when this server process started.
             * @example 2030-01-01T00:00:00.000Z
             */
            createdAt: string;
            expiresAt: string | null;
            lastUsedAt: string | null;
            revokedAt: string | null;
        };
        RevokedApiKeyResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["ApiKey"];
        };
        ReanalyseStartedResponse: {
            /** @constant */
            success: true;
            data: {
                id: string;
                /** @enum {string} */
                state: "listing" | "running" | "done";
                dryRun: boolean;
                /** @description Analyses to redo (known once the listing is over). */
                total: number;
                /** @description Of which handled, whatever the outcome. */
                done: number;
                replaced: number;
                /** @description Audio no longer to be had: the old analysis is kept. */
                unavailable: {
                    trackKey: string;
                    artist: string;
                    trackName: string;
                    code: string;
                    message: string;
                }[];
                /** @description The new analysis failed: the old one is kept. */
                failed: {
                    trackKey: string;
                    artist: string;
                    trackName: string;
                    code: string;
                    message: string;
                }[];
                /** @description How many of the analyses to redo each engine made. */
                byEngine: {
                    [key: string]: number;
                };
                startedAt: string;
                finishedAt?: string;
                /** @description False when a re-analysis was already running: this is that one. */
                started: boolean;
            };
        };
        ReanalyseResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Reanalysis"];
        };
        Reanalysis: {
            id: string;
            /** @enum {string} */
            state: "listing" | "running" | "done";
            dryRun: boolean;
            /** @description Analyses to redo (known once the listing is over). */
            total: number;
            /** @description Of which handled, whatever the outcome. */
            done: number;
            replaced: number;
            /** @description Audio no longer to be had: the old analysis is kept. */
            unavailable: {
                trackKey: string;
                artist: string;
                trackName: string;
                code: string;
                message: string;
            }[];
            /** @description The new analysis failed: the old one is kept. */
            failed: {
                trackKey: string;
                artist: string;
                trackName: string;
                code: string;
                message: string;
            }[];
            /** @description How many of the analyses to redo each engine made. */
            byEngine: {
                [key: string]: number;
            };
            startedAt: string;
            finishedAt?: string;
        };
        UsageResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["UsageDay"][];
        };
        /**
         * @description Requests, analyses and uploads of one key on one UTC day. Days without requests have no row.
         * @example {
         *       "keyId": "3f9a1c2b7d4e",
         *       "name": "mobile app",
         *       "day": "2030-01-02",
         *       "requests": 1240,
         *       "analyses": 31,
         *       "uploads": 4,
         *       "uploadBytes": 38211874
         *     }
         */
        UsageDay: {
            keyId: string;
            /** @description The key’s name (its id if the key is no longer known). */
            name: string;
            /** @description The UTC day, YYYY-MM-DD. */
            day: string;
            /** @description Requests made with the key while it was valid (REST and GraphQL HTTP requests; those the rate limit refused included). */
            requests: number;
            /** @description Of those, the requests that needed an analysis not stored yet. */
            analyses: number;
            /** @description Uploads begun (POST /api/audio/analyses), whatever their outcome: what UPLOAD_QUOTA_FILES_PER_DAY counts. */
            uploads: number;
            /** @description Bytes received of those uploads: what UPLOAD_QUOTA_BYTES_PER_DAY counts. */
            uploadBytes: number;
        };
        WebhooksResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Webhook"][];
        };
        /** @description A webhook of an API key. Its signing secret is shown once, when it is made. */
        Webhook: {
            /**
             * @description The webhook's id.
             * @example wh_5f1c0a9e2b7d4c3a8e6f1b2d
             */
            id: string;
            /**
             * @description Where its events are POSTed.
             * @example https://example.com/hooks/trackgraph
             */
            url: string;
            /** @description The events it receives (webhook.test is sent on request, whatever these are). */
            events: ("analysis.completed" | "analysis.failed")[];
            /**
             * Format: date-time
             * @description When it was made.
             * @example 2030-01-01T00:00:00.000Z
             */
            createdAt: string;
            disabledAt: string | null;
            /** @description Why it was disabled; null while it is enabled. */
            disabledReason: string | null;
            /** @description Failed attempts since its last success. */
            consecutiveFailures: number;
        };
        CreatedWebhookResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["CreatedWebhook"];
        };
        /** @description A new webhook and its signing secret, which no later answer shows. */
        CreatedWebhook: {
            /**
             * @description The webhook's id.
             * @example wh_5f1c0a9e2b7d4c3a8e6f1b2d
             */
            id: string;
            /**
             * @description Where its events are POSTed.
             * @example https://example.com/hooks/trackgraph
             */
            url: string;
            /** @description The events it receives (webhook.test is sent on request, whatever these are). */
            events: ("analysis.completed" | "analysis.failed")[];
            /**
             * Format: date-time
             * @description When it was made.
             * @example 2030-01-01T00:00:00.000Z
             */
            createdAt: string;
            /**
             * @description The signing secret (whsec_ and base64): shown in this answer only. Verify every message with it (docs/API.md, "Webhooks").
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        DeletedWebhookResponse: {
            /** @constant */
            success: true;
            data: {
                id: string;
            };
        };
        TestDeliveryResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["WebhookDelivery"];
        };
        /** @description One event to one webhook and where its delivery stands. */
        WebhookDelivery: {
            /**
             * @description The webhook-id header the receiver gets: the same on every attempt.
             * @example msg_0d1c2b3a4f5e6d7c8b9a0f1e
             */
            id: string;
            /**
             * @description The event it carries.
             * @enum {string}
             */
            event: "analysis.completed" | "analysis.failed" | "webhook.test";
            /** @description Attempts made so far. */
            attempt: number;
            /**
             * @description pending: not tried yet; retrying: the last attempt failed and another is due at nextAttemptAt; succeeded: the receiver answered 2xx; failed: no attempt is left.
             * @enum {string}
             */
            status: "pending" | "retrying" | "succeeded" | "failed";
            /** @description The receiver's HTTP status at the last attempt; null when it did not answer. */
            responseStatus: number | null;
            /** @description How long the last attempt took, ms. */
            durationMs: number | null;
            /** @description Why the last attempt failed (HTTP status, timeout, refused address …). */
            error: string | null;
            /**
             * Format: date-time
             * @description When the event was recorded for this webhook.
             * @example 2030-01-01T00:00:00.000Z
             */
            createdAt: string;
            nextAttemptAt: string | null;
        };
        DeliveriesResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["WebhookDelivery"][];
        };
        /** @description Spotify’s audio-features object, field for field (docs/FEATURES.md, "Spotify’s audio-features shape"). */
        SpotifyAudioFeatures: {
            acousticness: number | null;
            /** @description The audio-analysis of the track in Spotify’s shape (GET /v1/audio-analysis/{id}). */
            analysis_url: string;
            /** @description Danceability, 0–1 (our scale: docs/FEATURES.md). */
            danceability: number;
            /** @description Duration of the whole file, ms. */
            duration_ms: number;
            /** @description Energy, 0–1 (our scale). */
            energy: number;
            /** @description The trackKey. */
            id: string;
            /** @description Absence of spoken voice, 0–1 (our scale). */
            instrumentalness: number;
            /** @description Pitch class 0–11 (0 = C); -1 when no key was detected. */
            key: number;
            /** @description Liveness, 0–1 (our scale). */
            liveness: number;
            /** @description Integrated loudness, LUFS (EBU R128): dB relative to full scale, as Spotify’s. */
            loudness: number;
            /** @description 1 major, 0 minor. */
            mode: number;
            /** @description Speechiness, 0–1. */
            speechiness: number;
            /** @description Beats per minute. */
            tempo: number;
            /** @description Beats per bar. */
            time_signature: number;
            /** @description The analysis in the contract’s shape. */
            track_href: string;
            /** @constant */
            type: "audio_features";
            /** @description trackgraph:track:<trackKey>. */
            uri: string;
            /** @description Valence, 0–1 (our scale). */
            valence: number;
        };
        /** @description Being analysed: ask again after retry_after seconds. */
        SpotifyPending: {
            /** @enum {string} */
            status: "queued" | "processing";
            /** @description Analyses ahead of this one. */
            queue_position: number;
            /** @description Seconds to wait before asking again. */
            retry_after: number;
        };
        /** @description Spotify’s error object. */
        SpotifyError: {
            error: {
                /** @description The HTTP status. */
                status: number;
                /** @description What went wrong, for a person to read. */
                message: string;
            };
        };
        /** @description Spotify’s audio-analysis object (docs/FEATURES.md, "Spotify’s audio-analysis shape"). */
        SpotifyAudioAnalysis: {
            meta: {
                /** @description The engine build (trackgraph-engine/<version>, and its model method when models ran). */
                analyzer_version: string;
                /** @constant */
                platform: "trackgraph";
                /** @constant */
                detailed_status: "OK";
                /** @constant */
                status_code: 0;
                /** @description When it was analysed, Unix seconds. */
                timestamp: number;
                /** @description How the audio was read: mono, 44.1 kHz, analysed at 22.05 kHz. */
                input_process: string;
            };
            track: {
                /** @description duration × analysis_sample_rate. */
                num_samples: number;
                /** @description Seconds (the whole file). */
                duration: number;
                /**
                 * @description Not computed: empty.
                 * @constant
                 */
                sample_md5: "";
                /** @description Start of the analysed window, seconds. */
                offset_seconds: number;
                /** @description Length of the analysed window, seconds (0: the timeline is empty). */
                window_seconds: number;
                /** @constant */
                analysis_sample_rate: 22050;
                /** @constant */
                analysis_channels: 1;
                /** @description Not measured: 0. */
                end_of_fade_in: number;
                /** @description Not measured: the duration. */
                start_of_fade_out: number;
                /** @description Integrated loudness, LUFS. */
                loudness: number;
                tempo: number;
                /** @description A calibrated probability that the tempo is the beat listeners tap (docs/FEATURES.md, "Confidences"). */
                tempo_confidence: number;
                /** @description Not Spotify’s (additive): the runner-up tempi, most probable first; empty for analyses older than engine 11. */
                tempo_alternatives: {
                    tempo: number;
                    /** @description Its probability of being the tapped level (docs/FEATURES.md, "Tempo alternatives"). */
                    confidence: number;
                }[];
                time_signature: number;
                time_signature_confidence: number;
                /** @description -1 when no key was detected. */
                key: number;
                key_confidence: number;
                mode: number;
                mode_confidence: number;
                /**
                 * @description No fingerprints: empty.
                 * @constant
                 */
                codestring: "";
                /** @constant */
                code_version: 0;
                /** @constant */
                echoprintstring: "";
                /** @constant */
                echoprint_version: 0;
                /** @constant */
                synchstring: "";
                /** @constant */
                synch_version: 0;
                /** @constant */
                rhythmstring: "";
                /** @constant */
                rhythm_version: 0;
            };
            bars: components["schemas"]["SpotifyTimeInterval"][];
            beats: components["schemas"]["SpotifyTimeInterval"][];
            /** @description Two per beat (the beats halved). */
            tatums: components["schemas"]["SpotifyTimeInterval"][];
            sections: components["schemas"]["SpotifySection"][];
            /** @description Empty for analyses older than engine 11 and for analyses another server made. */
            segments: components["schemas"]["SpotifySegment"][];
        };
        /** @description A bar, beat or tatum. */
        SpotifyTimeInterval: {
            /** @description Seconds from the start of the file. */
            start: number;
            /** @description Seconds. */
            duration: number;
            /** @description How sure the engine is of it. */
            confidence: number;
        };
        /** @description A section: a span of similar level. */
        SpotifySection: {
            /** @description Seconds from the start of the file. */
            start: number;
            /** @description Seconds. */
            duration: number;
            /** @description How sure the engine is of it. */
            confidence: number;
            /** @description Integrated loudness of the section, LUFS. */
            loudness: number;
            tempo: number;
            tempo_confidence: number;
            key: number;
            key_confidence: number;
            mode: number;
            mode_confidence: number;
            /** @description The track’s. */
            time_signature: number;
            time_signature_confidence: number;
        };
        /** @description A segment: from one onset to the next. */
        SpotifySegment: {
            /** @description Seconds from the start of the file. */
            start: number;
            /** @description Seconds. */
            duration: number;
            /** @description How sure the engine is of it. */
            confidence: number;
            /** @description dBFS at the start (floored at -60). */
            loudness_start: number;
            /** @description Loudest level, dBFS. */
            loudness_max: number;
            /** @description Seconds from the segment’s start to its loudest level. */
            loudness_max_time: number;
            /** @description dBFS at the end. */
            loudness_end: number;
            /** @description Chroma, C first, the strongest 1. */
            pitches: number[];
            /** @description Mel-frequency cepstral coefficients, our own basis (docs/FEATURES.md, "Segments"). */
            timbre: number[];
        };
        /** @description One entry per id, in the order asked; null where an id has no stored analysis. */
        SpotifyAudioFeaturesList: {
            audio_features: (components["schemas"]["SpotifyAudioFeatures"] | null)[];
        };
        /** @description Spotify’s recommendations object: the tracks nearest first, and the seeds. */
        SpotifyRecommendations: {
            tracks: components["schemas"]["SpotifyTrack"][];
            seeds: components["schemas"]["SpotifyRecommendationSeed"][];
        };
        /** @description A recommended track: the fields of Spotify’s track object this server can fill. */
        SpotifyTrack: {
            /** @description The trackKey. */
            id: string;
            name: string;
            artists: {
                name: string;
                /** @constant */
                type: "artist";
            }[];
            duration_ms: number;
            /** @description The analysis in the contract’s shape. */
            href: string;
            /** @description trackgraph:track:<trackKey>. */
            uri: string;
            /** @constant */
            type: "track";
        };
        /** @description A seed of the recommendations and the sizes of the pool ranked for it. */
        SpotifyRecommendationSeed: {
            /** @description The seed track’s trackKey, or the genre seed as asked for, in Spotify’s spelling. */
            id: string;
            /** @enum {string} */
            type: "TRACK" | "GENRE";
            /** @description The seed track’s analysis in the contract’s shape; null for a genre. */
            href: string | null;
            /** @description Stored analyses read (within the min_/max_ ranges, and of the seed genres). */
            initialPoolSize: number;
            /** @description Of those, the ones that are not seeds. */
            afterFilteringSize: number;
            /** @description The same as afterFilteringSize (nothing is relinked). */
            afterRelinkingSize: number;
        };
        /** @description The genre seeds: the auto-tagger’s tags but its eras and voices. */
        SpotifyGenreSeeds: {
            /** @description Every genre seed_genres takes, in Spotify’s spelling. */
            genres: string[];
        };
        /**
         * @description First 16 hex characters of sha256(lower(trim(artist)) + ":" + lower(trim(track))), after Unicode NFC.
         * @example bc24aaa5a97c70ed
         */
        TrackKey: string;
    };
    responses: {
        /** @description INVALID_ARGUMENT: a parameter is missing or invalid. */
        Error400: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description UNAUTHENTICATED: missing, unknown, revoked or expired API key (WWW-Authenticate: Bearer). */
        Error401: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description FORBIDDEN: the key’s scope does not allow this (managing keys needs an admin key). */
        Error403: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description TRACK_NOT_FOUND: no search found the key and no source knows it; search first or pass artist and track. NOT_FOUND: no such key or webhook. */
        Error404: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description AUDIO_UNDECODABLE or NO_AUDIO_SOURCE. */
        Error422: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description RATE_LIMITED, or UPLOAD_QUOTA_EXCEEDED for an upload (Retry-After). */
        Error429: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description INTERNAL. */
        Error500: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description UPSTREAM_UNAVAILABLE (no source could answer) or UPSTREAM_INVALID (a source answered a record outside the contract). */
        Error502: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description SERVICE_UNAVAILABLE: the store is unreachable (Retry-After). */
        Error503: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description UPSTREAM_TIMEOUT or ANALYSIS_TIMEOUT. */
        Error504: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description INVALID_ARGUMENT: a field is missing or invalid, or the key is one of API_KEYS or ADMIN_API_KEYS (only the configuration removes those). */
        Error400Key: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description NOT_FOUND: no key has this id. */
        Error404Key: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description PAYLOAD_TOO_LARGE: the audio is larger than UPLOAD_MAX_BYTES (nothing past the limit is kept; the rest is read and thrown away, then the connection closed). */
        Error413: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description UNSUPPORTED_MEDIA: the bytes are not audio this server reads (whatever the name or Content-Type says), or the Content-Type is none of those the route takes. */
        Error415: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description AUDIO_UNDECODABLE: the audio cannot be decoded. URL_REFUSED: the URL leads to an address that is not public (loopback, private, link-local, reserved). URL_UNREACHABLE: the URL’s host does not resolve or cannot be connected to, answers other than 2xx, breaks off, or does not send the file within UPLOAD_FETCH_TIMEOUT_MS. */
        Error422Upload: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description NOT_FOUND: this server runs no re-analysis of this id (or it finished long ago). */
        Error404Reanalyse: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    search: {
        parameters: {
            query: {
                /** @description Title to look for. At most 300 characters, no control characters; '+' is a space. */
                track: string;
                artist?: string;
                /** @description Results per page: 1–50, default 10. */
                limit?: number;
                /** @description Matches to skip (paging): 0–50, default 0. The answer's Link header names the next and previous pages. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matching tracks, best first. */
            200: {
                headers: {
                    /** @description Present only when some source could not be searched: their names, comma-separated (the body’s failedSources says why). */
                    "Trackgraph-Failed-Sources"?: string;
                    /** @description RFC 8288 links to the neighbouring pages: rel="next" when more matches follow, rel="prev" when offset > 0. */
                    Link?: string;
                    /** @description Requests per minute allowed to this key. */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the current window. */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets. */
                    "RateLimit-Reset": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponse"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            502: components["responses"]["Error502"];
            504: components["responses"]["Error504"];
        };
    };
    analysis: {
        parameters: {
            query?: {
                artist?: string;
                track?: string;
            };
            header?: {
                /** @description The ETag of an answer already held: 304 without a body when it is still the answer. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The track key (16 hex characters, either case), from search or computed by the client. */
                trackKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The analysis. */
            200: {
                headers: {
                    /** @description Strong entity tag of the stored answer (a hash of its body: it changes only when an operator re-analyses the track). */
                    ETag: string;
                    /** @description The engine build stored with the analysis: `trackgraph-engine/<n>`, then ` models:<set>[/r<rank>][/p<patches>]` when trained models made its moods; `upstream:…` for another server’s. */
                    "Trackgraph-Engine": string;
                    /** @description How the moods, valence, danceability and instrumentalness were made: `signal`, `models:<set>[/r<rank>][/p<patches>]` (`/r32`: the models’ convolutions factorised at rank 32; `/p<n>`: over n patches per window) or `external`. */
                    "Trackgraph-Analysis-Method": string;
                    /** @description Requests per minute allowed to this key. */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the current window. */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets. */
                    "RateLimit-Reset": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalysisResponse"];
                };
            };
            /** @description Being analysed: ask again after retryAfter seconds. */
            202: {
                headers: {
                    /** @description Seconds. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalysisPending"];
                };
            };
            /** @description Not modified: If-None-Match named the ETag of the stored answer. */
            304: {
                headers: {
                    /** @description Strong entity tag of the stored answer (a hash of its body: it changes only when an operator re-analyses the track). */
                    ETag: string;
                    /** @description The engine build stored with the analysis: `trackgraph-engine/<n>`, then ` models:<set>[/r<rank>][/p<patches>]` when trained models made its moods; `upstream:…` for another server’s. */
                    "Trackgraph-Engine": string;
                    /** @description How the moods, valence, danceability and instrumentalness were made: `signal`, `models:<set>[/r<rank>][/p<patches>]` (`/r32`: the models’ convolutions factorised at rank 32; `/p<n>`: over n patches per window) or `external`. */
                    "Trackgraph-Analysis-Method": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            502: components["responses"]["Error502"];
            503: components["responses"]["Error503"];
            504: components["responses"]["Error504"];
        };
    };
    timeline: {
        parameters: {
            query?: {
                artist?: string;
                track?: string;
            };
            header?: {
                /** @description The ETag of an answer already held: 304 without a body when it is still the answer. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The track key (16 hex characters, either case), from search or computed by the client. */
                trackKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The timeline. */
            200: {
                headers: {
                    /** @description Strong entity tag of the stored answer (a hash of its body: it changes only when an operator re-analyses the track). */
                    ETag: string;
                    /** @description The engine build stored with the analysis: `trackgraph-engine/<n>`, then ` models:<set>[/r<rank>][/p<patches>]` when trained models made its moods; `upstream:…` for another server’s. */
                    "Trackgraph-Engine": string;
                    /** @description How the moods, valence, danceability and instrumentalness were made: `signal`, `models:<set>[/r<rank>][/p<patches>]` (`/r32`: the models’ convolutions factorised at rank 32; `/p<n>`: over n patches per window) or `external`. */
                    "Trackgraph-Analysis-Method": string;
                    /** @description Requests per minute allowed to this key. */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the current window. */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets. */
                    "RateLimit-Reset": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimelineResponse"];
                };
            };
            /** @description Being analysed: ask again after retryAfter seconds. */
            202: {
                headers: {
                    /** @description Seconds. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalysisPending"];
                };
            };
            /** @description Not modified: If-None-Match named the ETag of the stored answer. */
            304: {
                headers: {
                    /** @description Strong entity tag of the stored answer (a hash of its body: it changes only when an operator re-analyses the track). */
                    ETag: string;
                    /** @description The engine build stored with the analysis: `trackgraph-engine/<n>`, then ` models:<set>[/r<rank>][/p<patches>]` when trained models made its moods; `upstream:…` for another server’s. */
                    "Trackgraph-Engine": string;
                    /** @description How the moods, valence, danceability and instrumentalness were made: `signal`, `models:<set>[/r<rank>][/p<patches>]` (`/r32`: the models’ convolutions factorised at rank 32; `/p<n>`: over n patches per window) or `external`. */
                    "Trackgraph-Analysis-Method": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            502: components["responses"]["Error502"];
            503: components["responses"]["Error503"];
            504: components["responses"]["Error504"];
        };
    };
    analyses: {
        parameters: {
            query?: {
                keys?: string;
                /** @description The same as keys (Spotify's name for it); give one of the two. */
                ids?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One entry per key, in the order asked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalysesResponse"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    analyseUpload: {
        parameters: {
            query?: {
                /** @description With a raw audio body: the artist to file it under. */
                artist?: string;
                /** @description With a raw audio body: the title to file it under. */
                track?: string;
                /** @description With a raw audio body: its file name, which names the track when nothing else does. */
                filename?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["UploadForm"];
                "audio/*": string;
                "application/octet-stream": string;
                "application/json": components["schemas"]["AnalyseUrlBody"];
            };
        };
        responses: {
            /** @description The analysis. */
            200: {
                headers: {
                    /** @description The analysis, /api/audio/analysis/{trackKey}. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadAnalysisResponse"];
                };
            };
            /** @description Being analysed: ask the Location after retryAfter seconds. */
            202: {
                headers: {
                    /** @description Seconds. */
                    "Retry-After": number;
                    /** @description The analysis, /api/audio/analysis/{trackKey}. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadPending"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422Upload"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
            504: components["responses"]["Error504"];
        };
    };
    artwork: {
        parameters: {
            query?: {
                /** @description The signature of a thumbnailUrl; with it no key is needed. */
                sig?: string;
            };
            header?: never;
            path: {
                /** @description The track key (16 hex characters, either case), from search or computed by the client. */
                trackKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image, with the type its bytes are (image/png for a placeholder). */
            200: {
                headers: {
                    /** @description private, max-age=86400 for a picture of the track’s own; max-age=3600 for a placeholder. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/jpeg": string;
                    "image/gif": string;
                    "image/webp": string;
                    "image/avif": string;
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    similar: {
        parameters: {
            query?: {
                /** @description What makes tracks near: descriptors (the default; tempo, key, mode, descriptors, moods) or sound (their sound embeddings; docs/SIMILARITY.md). */
                by?: "descriptors" | "sound";
                /** @description How many: 1–50, default 10. */
                limit?: number;
                /** @description true: leave out the tracks of the asked track's own artist (names compared without case, accents or spacing); false (the default): every artist. */
                otherArtists?: "true" | "false";
                /** @description json (the default), or m3u: an M3U8 playlist of the tracks that are files of the music folder (also asked by Accept: audio/x-mpegurl). */
                format?: "json" | "m3u";
            };
            header?: never;
            path: {
                /** @description The track key (16 hex characters, either case), from search or computed by the client. */
                trackKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The nearest tracks, or their playlist. */
            200: {
                headers: {
                    /** @description With a playlist: the tracks left out (not files of the music folder, or not stored). */
                    "Trackgraph-Playlist-Skipped"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SimilarResponse"];
                    "audio/x-mpegurl": string;
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    soundPath: {
        parameters: {
            query: {
                /** @description The stored track the path starts at. */
                from: string;
                /** @description The stored track the path ends at. */
                to: string;
                /** @description Tracks between the two: 0–50, default 8. */
                steps?: number;
                /** @description json (the default), or m3u: an M3U8 playlist of the tracks that are files of the music folder (also asked by Accept: audio/x-mpegurl). */
                format?: "json" | "m3u";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The path, from first to last, or its playlist. */
            200: {
                headers: {
                    /** @description With a playlist: the tracks left out (not files of the music folder, or not stored). */
                    "Trackgraph-Playlist-Skipped"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PathResponse"];
                    "audio/x-mpegurl": string;
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    playlistOfKeys: {
        parameters: {
            query: {
                /** @description Up to 500 trackKeys, comma-separated, in the playlist's order. */
                keys: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The playlist. */
            200: {
                headers: {
                    /** @description With a playlist: the tracks left out (not files of the music folder, or not stored). */
                    "Trackgraph-Playlist-Skipped"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "audio/x-mpegurl": string;
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    savePlaylist: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SavePlaylist"];
            };
        };
        responses: {
            /** @description Saved over the playlist of that name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplacedPlaylistResponse"];
                };
            };
            /** @description Saved. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedPlaylistResponse"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            502: components["responses"]["Error502"];
            503: components["responses"]["Error503"];
            504: components["responses"]["Error504"];
        };
    };
    apiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys, revoked ones included. */
            200: {
                headers: {
                    /** @description Answers about keys, usage and webhooks are never cached. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeysResponse"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKey"];
            };
        };
        responses: {
            /** @description The key, shown this once. */
            201: {
                headers: {
                    /** @description Answers about keys, usage and webhooks are never cached. */
                    "Cache-Control": "no-store";
                    /** @description The key’s path, /api/keys/{id}. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKeyResponse"];
                };
            };
            400: components["responses"]["Error400Key"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key’s id, as listed (never the key). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key, with revokedAt. */
            200: {
                headers: {
                    /** @description Answers about keys, usage and webhooks are never cached. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevokedApiKeyResponse"];
                };
            };
            400: components["responses"]["Error400Key"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404Key"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    startReanalysis: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description Only analyses of an engine version below this one (method ignored): 11 or trackgraph-engine/11. Absent: every analysis of an older version, or of the current version by another method.
                     * @example 11
                     */
                    olderThan?: number | string;
                    /** @description Lists and counts what would be redone; analyses nothing. */
                    dryRun?: boolean;
                };
            };
        };
        responses: {
            /** @description The job and its progress so far. */
            202: {
                headers: {
                    /** @description Answers about keys, usage and webhooks are never cached. */
                    "Cache-Control": "no-store";
                    /** @description The job’s path, /api/admin/reanalyse/{id}. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReanalyseStartedResponse"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    reanalysis: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The re-analysis job’s id, from POST /api/admin/reanalyse. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job’s progress. */
            200: {
                headers: {
                    /** @description Answers about keys, usage and webhooks are never cached. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReanalyseResponse"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404Reanalyse"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    usage: {
        parameters: {
            query?: {
                /** @description The last N UTC days, today included: 1–366, default 30. */
                days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One row per key and day with requests. */
            200: {
                headers: {
                    /** @description Answers about keys, usage and webhooks are never cached. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageResponse"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhooks. */
            200: {
                headers: {
                    /** @description Answers about keys, usage and webhooks are never cached. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhooksResponse"];
                };
            };
            401: components["responses"]["Error401"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description An http(s) URL that resolves to a public address.
                     * @example https://example.com/hooks/trackgraph
                     */
                    url: string;
                    /**
                     * @description analysis.completed and/or analysis.failed; both when absent.
                     * @example [
                     *       "analysis.completed",
                     *       "analysis.failed"
                     *     ]
                     */
                    events?: string[];
                };
            };
        };
        responses: {
            /** @description The webhook and its secret. */
            201: {
                headers: {
                    /** @description Answers about keys, usage and webhooks are never cached. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhookResponse"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    /** @description Answers about keys, usage and webhooks are never cached. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedWebhookResponse"];
                };
            };
            401: components["responses"]["Error401"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted: the delivery, pending; its outcome is in the delivery log. */
            202: {
                headers: {
                    /** @description Answers about keys, usage and webhooks are never cached. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestDeliveryResponse"];
                };
            };
            401: components["responses"]["Error401"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    webhookDeliveries: {
        parameters: {
            query?: {
                /** @description Deliveries listed, newest first: 1–100, default 20. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The webhook's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deliveries. */
            200: {
                headers: {
                    /** @description Answers about keys, usage and webhooks are never cached. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveriesResponse"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    spotifyAudioFeatures: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A trackKey (16 hex), `isrc:<ISRC>` (12 characters, e.g. isrc:GBAYE7300100), or a Spotify track id (22 base-62 characters), bare, as `spotify:track:<id>` or in a track’s open.spotify.com URL, percent-encoded (resolved where MusicBrainz relates a recording to that Spotify track, when MusicBrainz is enabled). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The audio features. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyAudioFeatures"];
                };
            };
            /** @description Being analysed. */
            202: {
                headers: {
                    /** @description Seconds. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyPending"];
                };
            };
            /** @description A parameter or id is missing or malformed (an ISRC is 12 characters: 2 letters, 3 letters or digits, 7 digits). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (WWW-Authenticate: Bearer). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description No track has this id (recommendations: a seed has no stored analysis). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description The audio could not be decoded, or no source has audio of the track. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description Rate limited (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description Internal error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description No source could answer. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description The store is unreachable (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description A source or the analysis took too long. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
        };
    };
    spotifyAudioAnalysis: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A trackKey (16 hex), `isrc:<ISRC>` (12 characters, e.g. isrc:GBAYE7300100), or a Spotify track id (22 base-62 characters), bare, as `spotify:track:<id>` or in a track’s open.spotify.com URL, percent-encoded (resolved where MusicBrainz relates a recording to that Spotify track, when MusicBrainz is enabled). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The audio analysis. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyAudioAnalysis"];
                };
            };
            /** @description Being analysed. */
            202: {
                headers: {
                    /** @description Seconds. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyPending"];
                };
            };
            /** @description A parameter or id is missing or malformed (an ISRC is 12 characters: 2 letters, 3 letters or digits, 7 digits). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (WWW-Authenticate: Bearer). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description No track has this id (recommendations: a seed has no stored analysis). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description The audio could not be decoded, or no source has audio of the track. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description Rate limited (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description Internal error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description No source could answer. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description The store is unreachable (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description A source or the analysis took too long. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
        };
    };
    spotifyAudioFeaturesMany: {
        parameters: {
            query: {
                /** @description Up to 100 ids (trackKeys, isrc:<ISRC>, Spotify track ids bare, as spotify:track:<id> or in open.spotify.com track URLs), comma-separated; the answer keeps their order. */
                ids: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One entry per id. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyAudioFeaturesList"];
                };
            };
            /** @description A parameter or id is missing or malformed (an ISRC is 12 characters: 2 letters, 3 letters or digits, 7 digits). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (WWW-Authenticate: Bearer). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description Rate limited (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description Internal error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description No source could answer. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description The store is unreachable (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description A source or the analysis took too long. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
        };
    };
    spotifyRecommendations: {
        parameters: {
            query?: {
                /** @description Up to 5 trackKeys of stored analyses, comma-separated: the targets not given are their mean. */
                seed_tracks?: string;
                /** @description Genre seeds (GET /v1/recommendations/available-genre-seeds), comma-separated: the tracks answered have one of them among their 3 most probable tags (only analyses the trained models made have tags). Up to 5 seeds, tracks and genres together. */
                seed_genres?: string;
                /** @description Tracks answered: 1–100, default 20. */
                limit?: number;
                /** @description Lowest energy allowed (inclusive). */
                min_energy?: number;
                /** @description Highest energy allowed (inclusive). */
                max_energy?: number;
                /** @description The energy to be near (default: the seeds’ mean). */
                target_energy?: number;
                /** @description Lowest liveness allowed (inclusive). */
                min_liveness?: number;
                /** @description Highest liveness allowed (inclusive). */
                max_liveness?: number;
                /** @description The liveness to be near (default: the seeds’ mean). */
                target_liveness?: number;
                /** @description Lowest danceability allowed (inclusive). */
                min_danceability?: number;
                /** @description Highest danceability allowed (inclusive). */
                max_danceability?: number;
                /** @description The danceability to be near (default: the seeds’ mean). */
                target_danceability?: number;
                /** @description Lowest instrumentalness allowed (inclusive). */
                min_instrumentalness?: number;
                /** @description Highest instrumentalness allowed (inclusive). */
                max_instrumentalness?: number;
                /** @description The instrumentalness to be near (default: the seeds’ mean). */
                target_instrumentalness?: number;
                /** @description Lowest speechiness allowed (inclusive). */
                min_speechiness?: number;
                /** @description Highest speechiness allowed (inclusive). */
                max_speechiness?: number;
                /** @description The speechiness to be near (default: the seeds’ mean). */
                target_speechiness?: number;
                /** @description Lowest acousticness allowed (inclusive). */
                min_acousticness?: number;
                /** @description Highest acousticness allowed (inclusive). */
                max_acousticness?: number;
                /** @description The acousticness to be near (default: the seeds’ mean). */
                target_acousticness?: number;
                /** @description Lowest valence allowed (inclusive). */
                min_valence?: number;
                /** @description Highest valence allowed (inclusive). */
                max_valence?: number;
                /** @description The valence to be near (default: the seeds’ mean). */
                target_valence?: number;
                /** @description Lowest arousal allowed (inclusive). */
                min_arousal?: number;
                /** @description Highest arousal allowed (inclusive). */
                max_arousal?: number;
                /** @description The arousal to be near (default: the seeds’ mean). */
                target_arousal?: number;
                /** @description Lowest approachability allowed (inclusive). */
                min_approachability?: number;
                /** @description Highest approachability allowed (inclusive). */
                max_approachability?: number;
                /** @description The approachability to be near (default: the seeds’ mean). */
                target_approachability?: number;
                /** @description Lowest engagement allowed (inclusive). */
                min_engagement?: number;
                /** @description Highest engagement allowed (inclusive). */
                max_engagement?: number;
                /** @description The engagement to be near (default: the seeds’ mean). */
                target_engagement?: number;
                /** @description Lowest tempo allowed (inclusive). */
                min_tempo?: number;
                /** @description Highest tempo allowed (inclusive). */
                max_tempo?: number;
                /** @description The tempo to be near (default: the seeds’ mean). */
                target_tempo?: number;
                /** @description Lowest key allowed (inclusive). */
                min_key?: number;
                /** @description Highest key allowed (inclusive). */
                max_key?: number;
                /** @description The key to be near (default: the seeds’ mean). */
                target_key?: number;
                /** @description Lowest mode allowed (inclusive). */
                min_mode?: number;
                /** @description Highest mode allowed (inclusive). */
                max_mode?: number;
                /** @description The mode to be near (default: the seeds’ mean). */
                target_mode?: number;
                /** @description Lowest loudness allowed (inclusive). */
                min_loudness?: number;
                /** @description Highest loudness allowed (inclusive). */
                max_loudness?: number;
                /** @description The loudness to be near (default: the seeds’ mean). */
                target_loudness?: number;
                /** @description Lowest time_signature allowed (inclusive). */
                min_time_signature?: number;
                /** @description Highest time_signature allowed (inclusive). */
                max_time_signature?: number;
                /** @description The time_signature to be near (default: the seeds’ mean). */
                target_time_signature?: number;
                /** @description Lowest duration_ms allowed (inclusive). */
                min_duration_ms?: number;
                /** @description Highest duration_ms allowed (inclusive). */
                max_duration_ms?: number;
                /** @description The duration_ms to be near (default: the seeds’ mean). */
                target_duration_ms?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The recommendations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyRecommendations"];
                };
            };
            /** @description A parameter or id is missing or malformed (an ISRC is 12 characters: 2 letters, 3 letters or digits, 7 digits). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (WWW-Authenticate: Bearer). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description No track has this id (recommendations: a seed has no stored analysis). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description Rate limited (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description Internal error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description The store is unreachable (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
        };
    };
    spotifyAvailableGenreSeeds: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The genre seeds. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyGenreSeeds"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (WWW-Authenticate: Bearer). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description Rate limited (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
            /** @description Internal error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpotifyError"];
                };
            };
        };
    };
}
