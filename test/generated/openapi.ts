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
        post?: never;
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
         * Cover art of a track.
         * @description The thumbnailUrl of a search result carries a signature (sig) and needs no key. Only PNG, JPEG, GIF, WebP or AVIF pictures are served, typed by their bytes; any other stored picture is 404 NOT_FOUND.
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
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
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
        ErrorCode: "INVALID_ARGUMENT" | "UNAUTHENTICATED" | "TRACK_NOT_FOUND" | "NOT_FOUND" | "AUDIO_UNDECODABLE" | "NO_AUDIO_SOURCE" | "RATE_LIMITED" | "UPSTREAM_UNAVAILABLE" | "UPSTREAM_INVALID" | "UPSTREAM_TIMEOUT" | "SERVICE_UNAVAILABLE" | "ANALYSIS_TIMEOUT" | "INTERNAL";
        SearchResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["SearchResult"][];
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
             * @description Cover-art URL (http or https), loadable by an <img> without a key.
             */
            thumbnailUrl?: string;
            trackKey: components["schemas"]["TrackKey"];
            /** @description How closely the result matches the query, in [0, 1]; larger is closer. */
            match_score: number;
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
            /** @description Pitch class 0–11 (0 = C, 9 = A). */
            key: number;
            /** @description 1 = major, 0 = minor. */
            mode: number;
            /** @description Beats per bar. */
            timeSignature: number;
            /** @description Intensity and activity: loud, dense, bright and distorted music reads high, quiet sparse music low. */
            energy: number;
            /** @description Likelihood that the recording is of a live performance (audience noise, room sound). */
            liveness: number;
            /** @description Suitability for dancing: a steady, clear beat carried by drums at a danceable tempo. */
            danceability: number;
            /** @description Likelihood that the track has no vocals. */
            instrumentalness: number;
            /** @description Presence of spoken words: above 0.66 probably speech alone, below 0.33 music. */
            speechiness: number;
            /** @description Musical positivity: higher sounds happier, cheerful or euphoric; lower sadder, tense or angry. */
            valence: number;
            /** @description Emotional intensity or stimulation: how exciting rather than calming the track is. */
            arousal: number;
            /** @description How accessible the track is to a general listener: conventional, consonant, steady. */
            approachability: number;
            /** @description Predicted ability to hold attention: variation and development over the track. */
            engagement: number;
            mood: components["schemas"]["Mood"];
            /** @description "<note> <major|minor>". */
            keyString: string;
            /** @description The artist and title again, as the contract duplicates them. */
            meta: {
                artist: string;
                track: string;
            };
        };
        /**
         * @description Mood scores, each in [0, 1].
         * @example {
         *       "happy": 0.62,
         *       "sad": 0.21,
         *       "relaxed": 0.35,
         *       "aggressive": 0.18
         *     }
         */
        Mood: {
            /** @description Predicted level of happiness. */
            happy: number;
            /** @description Predicted level of sadness. */
            sad: number;
            /** @description Predicted level of calmness or relaxation. */
            relaxed: number;
            /** @description Predicted level of aggression or intensity. */
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
        /** @description UNAUTHENTICATED: missing or unknown API key (WWW-Authenticate: Bearer). */
        Error401: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description TRACK_NOT_FOUND: the key is unknown; search first or pass artist and track. */
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
        /** @description RATE_LIMITED (Retry-After). */
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
                    /** @description Strong entity tag of the stored answer (it never changes). */
                    ETag: string;
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
                    /** @description Strong entity tag of the stored answer (it never changes). */
                    ETag: string;
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
                    /** @description Strong entity tag of the stored answer (it never changes). */
                    ETag: string;
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
                    /** @description Strong entity tag of the stored answer (it never changes). */
                    ETag: string;
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
            /** @description The image, with the type its bytes are. */
            200: {
                headers: {
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
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
}
